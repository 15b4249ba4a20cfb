// `GET /screenshot?caret=hide` (issue 24, 2: a wait's captures): a focused field's caret is in
// the model's screenshots and in none of a wait's, by pixels, over more than one blink; the page
// sees no DOM mutation and keeps its own adopted style sheets; a page that broke the built-ins the
// hiding needs still gets its screenshot (with the caret).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { createClawdieBrowserOperator } from '../../controlplane/src/browser/operator/clawdie-browser-operator.js';
import { requires } from '../support/capabilities.js';
import { htmlPage, type StaticSite, startStaticSite } from '../support/static-site.js';
import { assertAllOk, startTestJail, type TestJail, TOKEN } from './jail-harness.js';

/** An empty black field with a tall white caret: the only bright pixels in its box. */
const FIELD = { left: 20, top: 20, width: 300, height: 140 };
const field = (script: string) =>
  htmlPage(
    'Caret',
    `<input style="position:absolute;left:${FIELD.left}px;top:${FIELD.top}px;width:${FIELD.width}px;height:${FIELD.height}px;font-size:110px;border:0;outline:none;background:#000;color:#fff;caret-color:#fff">
<script>
let mutations = 0;
new MutationObserver((records) => { mutations += records.length; })
  .observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
${script}
setInterval(() => {
  document.title = JSON.stringify({ mutations, sheets: document.adoptedStyleSheets.length,
    own: document.adoptedStyleSheets[0]?.cssRules[0]?.cssText ?? null });
}, 20);
</script>`,
  );

describe('screenshots without the caret (real Chromium)', requires('chromium'), () => {
  let site: StaticSite;
  let jail: TestJail;
  before(async () => {
    site = await startStaticSite({
      '/field': field(''),
      '/own-sheet': field(`const own = new CSSStyleSheet();
own.replaceSync('body { margin: 0px; }');
document.adoptedStyleSheets = [own];`),
      '/broken': field('window.CSSStyleSheet = undefined;'),
    });
    jail = await startTestJail({ CLAWDIE_JAIL_VIEWPORT: '400x200' });
  });
  after(async () => {
    await jail?.close();
    await site?.close();
  });

  /** Bright pixels inside the field's box of a screenshot. */
  const caretPixels = async (hideCaret: boolean) => {
    // Through the controlplane's adapter: `hideCaret` must reach the jail-service as the query.
    const operator = createClawdieBrowserOperator({ url: jail.url, token: TOKEN });
    const { jpeg } = await operator.screenshot(undefined, { hideCaret });
    const { data, info } = await sharp(jpeg)
      .extract(FIELD)
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    let bright = 0;
    for (let i = 0; i < data.length; i += info.channels) if ((data[i] as number) > 128) bright += 1;
    return bright;
  };
  /** Focuses the field, then takes plain and caret-less screenshots in turn for 1.4 s. */
  const sample = async (path: string) => {
    assertAllOk(await jail.client.run([{ type: 'navigate', url: `${site.url}${path}` }]));
    assertAllOk(await jail.client.run([{ type: 'click', x: 100, y: 80 }]));
    const plain: number[] = [];
    const hidden: number[] = [];
    const until = performance.now() + 1400;
    while (performance.now() < until) {
      plain.push(await caretPixels(false));
      hidden.push(await caretPixels(true));
    }
    return { plain, hidden };
  };
  const page = () => jail.client.titleJson<{ mutations: number; sheets: number; own: string }>();

  it('leaves the caret out of every caret-less capture, and in the plain ones', async () => {
    const { plain, hidden } = await sample('/field');
    assert.ok(
      plain.some((bright) => bright >= 40),
      `a plain screenshot shows the caret: bright pixels ${plain}`,
    );
    assert.deepEqual(
      hidden.filter((bright) => bright > 0),
      [],
      `no caret-less screenshot shows it (${hidden.length} taken)`,
    );
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.deepEqual(await page(), { mutations: 0, sheets: 0, own: null });
  });

  it("keeps the page's own adopted style sheet", async () => {
    const { hidden } = await sample('/own-sheet');
    assert.ok(hidden.every((bright) => bright === 0));
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.deepEqual(await page(), { mutations: 0, sheets: 1, own: 'body { margin: 0px; }' });
  });

  it('still answers on a page that broke CSSStyleSheet (the caret stays)', async () => {
    const { plain, hidden } = await sample('/broken');
    assert.ok(plain.some((bright) => bright >= 40));
    assert.ok(
      hidden.some((bright) => bright >= 40),
      `with no way to hide it the caret is shown: ${hidden}`,
    );
  });

  it('refuses an unknown caret mode', async () => {
    const { response } = await jail.client.screenshot('?caret=blink');
    assert.equal(response.status, 400);
  });
});

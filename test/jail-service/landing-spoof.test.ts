// A page cannot tell the landing where it is: the walk reads origins, URLs and the element under a
// point in a world of its own (not the page's JavaScript), so a page that redefines
// `window.origin`, `Document.prototype.URL` or `elementFromPoint` changes nothing it reports. Real
// Chromium, two sites (127.0.0.1 and localhost: another site, so out-of-process frames too).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LandingResponse } from '@clawdie/kit/jail-api';
import { requires } from '../support/capabilities.js';
import { type StaticSite, startStaticSite } from '../support/static-site.js';
import { assertAllOk, type JailClient, startTestJail, type TestJail } from './jail-harness.js';
import { landing } from './landing-pages.js';

const box = (left: number, top: number, width: number, height: number) =>
  `position:absolute;left:${left}px;top:${top}px;width:${width}px;height:${height}px;margin:0`;
const page = (body: string) =>
  `<!doctype html><html><head></head><body style="margin:0">${body}</body></html>`;

/** Page script that claims to be `origin`: every getter a page-side walk would read. */
const claim = (origin: string) => `<script>
  const url = ${JSON.stringify(`${origin}/login`)};
  Object.defineProperty(window, 'origin', { get: () => ${JSON.stringify(origin)} });
  Object.defineProperty(Document.prototype, 'URL', { get: () => url });
  Object.defineProperty(Document.prototype, 'documentURI', { get: () => url });
  document.title = JSON.stringify([window.origin, document.URL]);
</script>`;

/** Page script that hides every frame from a point lookup in its own JavaScript. */
const HIDE_FRAMES = `<script>
  const real = Document.prototype.elementFromPoint;
  Document.prototype.elementFromPoint = function (x, y) {
    const el = real.call(this, x, y);
    return el && el.localName === 'iframe' ? this.body : el;
  };
</script>`;

const SECRET = 'Hunter2-Secret';
const origins = (reply: LandingResponse) => reply.target?.frames.map((frame) => frame.origin);

describe(
  'landing against a page that lies about itself (real Chromium)',
  requires('chromium'),
  () => {
    let bank: StaticSite;
    let evil: StaticSite;
    let evilUrl: string;
    let jail: TestJail;
    let client: JailClient;

    before(async () => {
      [bank, evil] = await Promise.all([startStaticSite({}), startStaticSite({})]);
      evilUrl = evil.url.replace('127.0.0.1', 'localhost');
      const field = `<input id=pass type=password autocomplete=current-password style="${box(10, 10, 300, 40)}">`;
      const pay = `<form action="/charge" method="post"><button style="${box(0, 0, 300, 100)}">Pay</button></form>`;
      bank.set('/pay', page(pay));
      // The attacker's own page, claiming to be the bank, with a password field.
      evil.set('/claims-bank', page(`${claim(bank.url)}${field}`));
      // The bank's page framing the attacker's, which claims to be the bank.
      bank.set(
        '/frames-evil',
        page(
          `<iframe src="${evilUrl}/claims-bank" style="${box(0, 100, 600, 300)};border:0"></iframe>`,
        ),
      );
      // The attacker's page framing the bank's Pay button, hiding the frame from a point lookup.
      evil.set(
        '/hides-pay',
        page(
          `${HIDE_FRAMES}<iframe src="${bank.url}/pay" style="${box(0, 0, 400, 200)};border:0"></iframe>`,
        ),
      );
      // The bank's login page, patched to throw the text it is given, spaced out (past a scrubber
      // that looks for the secret itself), from every path a secret insertion could take.
      bank.set(
        '/patched-login',
        page(`${field}<script>
        const leak = (text) => { throw new Error('saw ' + String(text).split('').join(' ')); };
        Document.prototype.execCommand = function (command, ui, text) { leak(text); };
        const value = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
        Object.defineProperty(HTMLInputElement.prototype, 'value', {
          get() { return value.get.call(this); }, set(text) { leak(text); } });
        window.InputEvent = function () { leak('InputEvent'); };
        document.title = JSON.stringify(typeof document.execCommand);
      </script>`),
      );
      jail = await startTestJail({ CLAWDIE_JAIL_NAVIGATION_TIMEOUT_MS: '5000' });
      client = jail.client;
    });
    after(async () => {
      await jail?.close();
      await Promise.all([bank?.close(), evil?.close()]);
    });
    const open = async (url: string) => assertAllOk(await client.run([{ type: 'navigate', url }]));

    it("reports a top page's real origin when it redefines window.origin and document.URL", async () => {
      await open(`${evilUrl}/claims-bank`);
      // In the page's own JavaScript the lie holds: it reads back the bank's origin and URL.
      assert.deepEqual(await client.titleJson<string[]>(), [bank.url, `${bank.url}/login`]);
      const click = await landing(client, { type: 'click', x: 50, y: 30 });
      assert.deepEqual(origins(click), [evilUrl]);
      assert.equal(click.target?.frames[0]?.url, `${evilUrl}/claims-bank`);
      assertAllOk(await client.run([{ type: 'click', x: 50, y: 30 }]));
      const typing = await landing(client, { type: 'type', text: 'x' });
      assert.deepEqual(origins(typing), [evilUrl]);
      assert.equal(typing.target?.element?.field, 'password');
    });

    it("refuses the bank's secret in the attacker's field that claims the bank's origin", async () => {
      await open(`${evilUrl}/claims-bank`);
      assertAllOk(await client.run([{ type: 'click', x: 50, y: 30 }]));
      const guard = { origins: [bank.url], fields: ['password' as const], autocomplete: [] };
      const reply = await client.run([{ type: 'type', text: SECRET, secret: guard }]);
      assert.equal(reply.results[0]?.error?.code, 'FOCUS_MISMATCH', JSON.stringify(reply));
      assert.match(reply.results[0]?.error?.message ?? '', new RegExp(`in ${evilUrl}`));
    });

    it('types a secret past page patches that throw what they are given, and says none of it', async () => {
      await open(`${bank.url}/patched-login`);
      assertAllOk(await client.run([{ type: 'click', x: 50, y: 30 }]));
      const guard = { origins: [bank.url], fields: ['password' as const], autocomplete: [] };
      const reply = await client.run([{ type: 'type', text: SECRET, secret: guard }]);
      assert.doesNotMatch(JSON.stringify(reply), /saw|H u n t/);
      assertAllOk(reply);
    });

    it('reports the real origin of an out-of-process frame that claims its parent', async () => {
      await open(`${bank.url}/frames-evil`);
      const click = await landing(client, { type: 'click', x: 50, y: 130 });
      assert.deepEqual(origins(click), [bank.url, evilUrl]);
      assert.equal(click.target?.element?.field, 'password');
    });

    it('finds a frame the page hides from elementFromPoint in its own JavaScript', async () => {
      await open(`${evilUrl}/hides-pay`);
      const click = await landing(client, { type: 'click', x: 100, y: 50 });
      assert.deepEqual(origins(click), [evilUrl, bank.url]);
      assert.equal(click.target?.element?.tag, 'button');
      assert.equal(click.target?.destination?.url, `${bank.url}/charge`);
    });
  },
);

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { smartResize } from '../../../../controlplane/src/agent/uitars/smart-resize.js';
import { demoTask } from '../../../../controlplane/src/platform/demo/demo-site-server.js';
import { startDemoSiteFixture } from '../../../support/demo-site-fixture.js';
import {
  demoElements,
  demoLoginPage,
  element,
  jailPage,
} from '../../../support/uitars-test-model-fake-jail.js';
import {
  actionsOf,
  assertAtCentre,
  clickToCss,
  complete,
  contentOf,
  screenshotMessages,
  setup,
} from './uitars-test-helpers.js';

describe('UI-TARS test model', () => {
  for (const dpr of [1, 2]) {
    it(`signs in over three turns with clicks on element centres (DPR ${dpr})`, async (t) => {
      const { jail, model } = await setup(t);
      jail.page = demoLoginPage('http://127.0.0.1:9/', dpr);
      const screenshot = { width: 1280 * dpr, height: 800 * dpr };
      const sized = smartResize(screenshot.width, screenshot.height);
      assert.ok(sized);
      const history: string[] = [];
      const expected = [
        [demoElements.username, "type(content='demo')"],
        [demoElements.password, "type(content='clawdie')"],
        [demoElements.signIn],
      ] as const;
      for (const [target, typed] of expected) {
        const text = await contentOf(
          await complete(model, await screenshotMessages(sized.width, sized.height, history)),
        );
        const actions = actionsOf(text);
        assert.equal(actions.length, typed === undefined ? 1 : 2, text);
        assertAtCentre(clickToCss(actions[0] ?? '', sized, screenshot, dpr), target, 0.5 / dpr + 1);
        if (typed !== undefined) assert.equal(actions[1], typed);
        history.push(text);
      }
      assert.equal(jail.unauthorised, 0);
    });
  }

  it('types the search term with an escaped newline to submit', async (t) => {
    const { jail, model } = await setup(t);
    jail.page = jailPage('http://127.0.0.1:9/search', 'Search · Clawdie Demo Shop', [
      demoElements.searchBox,
    ]);
    const text = await contentOf(await complete(model, await screenshotMessages(1288, 812)));
    const actions = actionsOf(text);
    assertAtCentre(
      clickToCss(actions[0] ?? '', { width: 1288, height: 812 }, { width: 1280, height: 800 }, 1),
      demoElements.searchBox,
      1,
    );
    assert.equal(actions[1], "type(content='lamp\\n')");
  });

  it('opens the product named in the instruction, not another result', async (t) => {
    const { jail, model } = await setup(t);
    jail.page = jailPage('http://127.0.0.1:9/results?q=lamp', 'lamp – Search results', [
      demoElements.nimbusLink,
      demoElements.auroraLink,
    ]);
    const actions = actionsOf(
      await contentOf(await complete(model, await screenshotMessages(1288, 812))),
    );
    assertAtCentre(
      clickToCss(actions[0] ?? '', { width: 1288, height: 812 }, { width: 1280, height: 800 }, 1),
      demoElements.auroraLink,
      1,
    );
    const other =
      'Log in to the demo shop with username demo and password clawdie, search for "lamp", open "Nimbus Floor Lamp" and report its order reference.';
    const second = actionsOf(
      await contentOf(await complete(model, await screenshotMessages(1288, 812, [], other))),
    );
    assertAtCentre(
      clickToCss(second[0] ?? '', { width: 1288, height: 812 }, { width: 1280, height: 800 }, 1),
      demoElements.nimbusLink,
      1,
    );
  });

  it('computes smart_resize itself in original coordinate space', async (t) => {
    const { jail, model } = await setup(t, { coordinateSpace: 'original' });
    jail.page = jailPage('http://127.0.0.1:9/search', 'Search', [demoElements.searchBox]);
    const actions = actionsOf(
      await contentOf(await complete(model, await screenshotMessages(1280, 800))),
    );
    const sized = smartResize(1280, 800);
    assert.deepEqual(sized, { width: 1288, height: 812 });
    assertAtCentre(
      clickToCss(actions[0] ?? '', sized, { width: 1280, height: 800 }, 1),
      demoElements.searchBox,
      1,
    );
  });

  it('reads the order reference from the real item page and finishes with it', async (t) => {
    const site = await startDemoSiteFixture(t);
    const { jail, model } = await setup(t);
    const itemUrl = `${site.url}/item/${demoTask.productId}`;
    jail.page = jailPage(itemUrl, `${demoTask.productName} · Clawdie Demo Shop`, [
      element('a', 'New search', [176, 82, 93, 20]),
    ]);
    const text = await contentOf(await complete(model, await screenshotMessages(1288, 812)));
    assert.deepEqual(actionsOf(text), [`finished(content='${demoTask.expectedValue}')`]);
    jail.page.state.title = 'Nimbus Floor Lamp · Clawdie Demo Shop';
    assert.deepEqual(
      actionsOf(await contentOf(await complete(model, await screenshotMessages(1288, 812)))),
      ["hotkey(key='alt left')"],
    );
  });

  it('opens the start URL from a blank tab, scrolls for a hidden result and waits elsewhere', async (t) => {
    const { jail, model } = await setup(t, { startUrl: 'http://127.0.0.1:9/' });
    const ask = async (): Promise<string[]> =>
      actionsOf(await contentOf(await complete(model, await screenshotMessages(1288, 812))));
    jail.page = jailPage('about:blank', '', []);
    assert.deepEqual(await ask(), [
      "hotkey(key='ctrl l')",
      "type(content='http://127.0.0.1:9/\\n')",
    ]);
    jail.page = jailPage('http://127.0.0.1:9/results?q=lamp', 'lamp', [demoElements.nimbusLink]);
    assert.deepEqual(await ask(), [
      "scroll(start_box='<|box_start|>(644,406)<|box_end|>', direction='down')",
    ]);
    jail.page = jailPage('http://127.0.0.1:9/elsewhere', 'Elsewhere', []);
    assert.deepEqual(await ask(), ['wait()']);
  });
});

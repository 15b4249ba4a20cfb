// Popups and tabs against real Chromium (issue 20): a window the page opens becomes the active
// page (state, screenshots and actions go to it, document_id changes) and its opener is active
// again when it closes; POST /reset gives the next task a clean browser; and the controlplane's
// single-browser provider resets before each lease, so task 2 works after task 1 left a popup.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createClawdieBrowserOperator } from '../../controlplane/src/browser/operator/clawdie-browser-operator.js';
import {
  createSingleBrowserProvider,
  resetJailBrowser,
} from '../../controlplane/src/browser/provider/browser-provider.js';
import { requires } from '../support/capabilities.js';
import { assertAllOk, type JailClient, type TestJail, TOKEN } from './jail-harness.js';
import { type Sites, withLandingJail } from './landing-pages.js';

describe('popups and tabs (real Chromium)', requires('chromium'), () => {
  let sites: Sites;
  let client: JailClient;
  let jail: TestJail;
  withLandingJail(
    {
      CLAWDIE_JAIL_ACTION_TIMEOUT_MS: '5000',
    },
    (fixture) => ({ sites, client, jail } = fixture),
  );
  const open = async (url: string) => assertAllOk(await client.run([{ type: 'navigate', url }]));

  for (const [how, y] of [
    ['a target=_blank link', 30],
    ['window.open', 100],
  ] as const) {
    it(`follows a popup opened by ${how} and returns to the opener when it closes`, async () => {
      await open(`${sites.a}/links`);
      const opener = await client.state();
      assertAllOk(await client.run([{ type: 'click', x: 50, y }]));
      const popup = await client.state();
      assert.equal(popup.url, `${sites.a}/popup`);
      assert.equal(popup.title, 'popup');
      assert.notEqual(popup.document_id, opener.document_id);
      const started = performance.now();
      const shot = await client.screenshot();
      assert.equal(shot.response.status, 200, 'the screenshot of the popup failed');
      assert.ok(performance.now() - started < 3000);
      // Its own button closes it; the opener is the active page again as soon as the click
      // returns (Chromium destroys the target a moment after `window.close()`; the click waits).
      assertAllOk(await client.run([{ type: 'click', x: 50, y: 30 }]));
      const back = await client.state();
      assert.equal(back.url, `${sites.a}/links`);
      assert.equal(back.document_id, opener.document_id);
      assert.equal((await client.screenshot()).response.status, 200);
    });
  }

  it('POST /reset closes popups, clears cookies and storage, and loads about:blank', async () => {
    await open(`${sites.a}/storage`);
    await open(`${sites.a}/storage`);
    assert.deepEqual(await client.titleJson(), { cookie: 'c=1', stored: 'v' });
    await open(`${sites.a}/links`);
    assertAllOk(await client.run([{ type: 'click', x: 50, y: 30 }]));
    assert.equal((await client.state()).url, `${sites.a}/popup`);
    await resetJailBrowser({ url: jail.url, token: TOKEN });
    assert.equal((await client.state()).url, 'about:blank');
    await open(`${sites.a}/storage`);
    assert.deepEqual(await client.titleJson(), { cookie: '', stored: null });
  });

  it('the local single-browser provider gives task 2 a working browser after task 1 left a popup', async () => {
    const endpoint = { url: jail.url, token: TOKEN };
    const provider = createSingleBrowserProvider(
      createClawdieBrowserOperator(endpoint),
      endpoint,
      'local',
      () => resetJailBrowser(endpoint),
    );
    const first = await provider.acquire({ taskId: 'task-1', allowedDomains: [] });
    await first.operator.execute([{ type: 'navigate', url: `${sites.a}/links` }]);
    await first.operator.execute([{ type: 'click', x: 50, y: 100 }]);
    assert.equal((await first.operator.state()).url, `${sites.a}/popup`);
    await first.release();
    const second = await provider.acquire({ taskId: 'task-2', allowedDomains: [] });
    assert.equal((await second.operator.state()).url, 'about:blank');
    const shot = await second.operator.screenshot();
    assert.ok(shot.meta.imageWidth > 0);
    await second.operator.execute([{ type: 'navigate', url: `${sites.a}/shop` }]);
    assert.equal((await second.operator.state()).url, `${sites.a}/shop`);
    await second.release();
  });
});

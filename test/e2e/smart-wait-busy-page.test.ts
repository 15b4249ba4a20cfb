// Issue 24 (2): the model's `wait()` on a real page in Chromium that never stops moving — a focused
// text field the model clicked into (its caret blinks) and a clock that ticks every second. The page's real change (a
// result panel) comes 2.5 s after load: the wait returns once it has settled, well before its 8 s
// limit (before, it always ran to the limit). On a page whose panel comes only after 4 s, the
// wait still waits for it: the screenshot after the wait shows the panel, by pixels.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClawdieBrowserOperator } from '../../controlplane/src/browser/operator/clawdie-browser-operator.js';
import {
  type LocalJailService,
  startLocalJailService,
} from '../../controlplane/src/browser/provider/local-jail-service.js';
import { withSmartWait } from '../../controlplane/src/browser/wait/smart-wait-operator.js';
import { WaitEngine } from '../../controlplane/src/browser/wait/wait-engine.js';
import { systemClock } from '../../controlplane/src/clock.js';
import { BUSY_FIELD, busyPage, showsPanel } from '../support/busy-page.js';
import { requires } from '../support/capabilities.js';
import { silentLogger } from '../support/silent-logger.js';
import { type StaticSite, startStaticSite } from '../support/static-site.js';
import { testImages } from '../support/test-images.js';
import { testLauncher } from '../support/test-launcher.js';

const WAIT_MS = 8000;

describe(
  'e2e: wait() on a page with a blinking caret and a ticking clock',
  requires('chromium'),
  () => {
    let site: StaticSite;
    let jail: LocalJailService;
    before(async () => {
      site = await startStaticSite({ '/soon': busyPage(2500), '/late': busyPage(4000) });
      jail = await startLocalJailService({
        egressProxyUrl: null,
        launcher: testLauncher,
        env: { ...process.env, CLAWDIE_JAIL_VIEWPORT: '1280x800' },
        logger: silentLogger,
      });
    });
    after(async () => {
      await jail?.stop();
      await site?.close();
    });

    const waitOn = async (path: string) => {
      const browser = createClawdieBrowserOperator({ url: jail.url, token: jail.token });
      const engine = new WaitEngine({ images: testImages, clock: systemClock });
      const operator = withSmartWait(browser, engine, { settleMs: 1000 });
      await operator.execute([{ type: 'navigate', url: `${site.url}${path}` }]);
      // As the model would: click into the field (the page gets focus, the caret blinks).
      await operator.execute([{ type: 'click', ...BUSY_FIELD }]);
      const response = await operator.execute([{ type: 'wait', ms: WAIT_MS }]);
      const shot = await operator.screenshot();
      engine.close();
      return { waited: response.results[0]?.duration_ms ?? Number.NaN, shot: shot.jpeg };
    };

    it('returns once the panel has settled, not at its limit', async () => {
      const { waited, shot } = await waitOn('/soon');
      assert.ok(await showsPanel(shot), 'the panel is on the screenshot after the wait');
      assert.ok(waited < WAIT_MS, `waited ${waited} ms: it ran to its ${WAIT_MS} ms limit`);
    });

    it('still waits for a panel that comes after 4 s', async () => {
      const { shot } = await waitOn('/late');
      assert.ok(await showsPanel(shot), 'the wait returned before the panel came');
    });
  },
);

// Issue 15 (a) in a real clone: the production wiring (startPlatform against a real in-process
// hostd, root, Linux driver) with a `handoff` policy. The task's clone hits the login wall →
// needs_user → an operator gets a link over REST, logs in through the interactive live view
// (input relayed into the clone's Chromium), hands back → the task finishes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../../controlplane/src/http/app.js';
import { linuxDriverMissing } from '../hostd/support/linux-harness.js';
import { skipFile } from '../support/capabilities.js';
import { type LoginWallSite, startLoginWallSite } from '../support/login-wall-site.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { silentLogger } from '../support/silent-logger.js';
import { launchDashboardChromium } from './dashboard-support.js';
import {
  closeServer,
  type HostdPlatform,
  serveOnLoopback,
  startHostdPlatform,
} from './support/hostd-platform.js';
import { jailReader, logInThroughView, until } from './takeover-operator.js';

const missing = linuxDriverMissing();

if (!skipFile('takeover of a task in a hostd clone (real Linux driver)', missing)) {
  describe('takeover of a task in a hostd clone (real Linux driver)', () => {
    let h: HostdPlatform;
    let site: LoginWallSite;
    before(async () => {
      site = await startLoginWallSite();
      h = await startHostdPlatform({
        concurrency: 1,
        sites: [new URL(site.url).host],
        policyExtra: 'handoff: { on: [login, otp, captcha, call_user], timeout_s: 120 }\n',
      });
    });
    after(async () => {
      await h?.close();
      await site?.close();
    });

    it('hands the clone’s login wall to an operator and finishes after the hand-back', async (t) => {
      const { platform } = h;
      const tasks = platform.createTasks(
        createPerTaskScriptModel(["Action: finished(content='in')"]),
      );
      t.after(() => tasks.close());
      const app = createApp({
        tasks,
        repository: platform.repository,
        logger: silentLogger,
        defaultMaxSteps: 10,
        describe: () => ({ model: { name: 'script', replay: true }, jail: { url: h.hostd.url } }),
        audit: platform.audit,
        takeover: platform.takeover.app,
      });
      const served = await serveOnLoopback(app.fetch);
      t.after(() => closeServer(served));
      platform.takeover.setPublicUrl(served.url);
      const post = (path: string, body: unknown) =>
        fetch(`${served.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const started = await post('/v1/tasks', {
        instruction: 'Open the account page',
        start_url: `${site.url}/account`,
        domains: [new URL(site.url).host],
      });
      assert.equal(started.status, 202, await started.clone().text());
      const { trace_id: taskId } = (await started.json()) as { trace_id: string };
      const status = async () =>
        (
          (await (await fetch(`${served.url}/v1/tasks/${taskId}`)).json()) as {
            task: { status: string };
          }
        ).task.status;
      await until('needs_user', async () => (await status()) === 'needs_user', 60_000);
      const active = platform.takeover.tasks.registry.get(taskId);
      assert.ok(active?.endpoint, 'the clone’s jail-service is the takeover target');
      assert.notEqual(new URL(active.endpoint.url).host, new URL(served.url).host);

      const link = (
        (await (await post(`/v1/tasks/${taskId}/takeover`, {})).json()) as { url: string }
      ).url;
      const chromium = await launchDashboardChromium();
      t.after(chromium.close);
      const page = await chromium.browser.newPage();
      await page.goto(link);
      await Promise.all([page.waitForNavigation(), page.click('[data-takeover-open] button')]);
      await page.waitForFunction(
        () =>
          (document.querySelector('[data-takeover-screen]') as HTMLImageElement).naturalWidth > 0,
        { timeout: 30_000 },
      );
      await logInThroughView(page, jailReader(active.endpoint), site);
      assert.equal(site.issuedCookies().length, 1, 'the clone’s browser logged in');
      await page.click('[data-takeover-handback] button');
      await page.waitForSelector('[data-takeover-ended="handed-back"]');
      await until('the end', async () => (await status()) === 'finished', 60_000);
    });
  });
}

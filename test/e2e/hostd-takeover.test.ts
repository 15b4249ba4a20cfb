// Issue 15 (a) in a real clone: the production wiring (createControlplane against a real in-process
// hostd, root, Linux driver) with a `handoff` policy. The task's clone hits the login wall →
// needs_user → an operator gets a link over REST, logs in through the interactive live view
// (input relayed into the clone's Chromium), hands back → the task finishes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { linuxDriverMissing } from '../hostd/support/linux-harness.js';
import { skipFile } from '../support/capabilities.js';
import { type LoginWallSite, startLoginWallSite } from '../support/login-wall-site.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { launchDashboardChromium } from './dashboard-support.js';
import { type HostdControlplane, startHostdControlplane } from './support/hostd-controlplane.js';
import { jailReader, logInThroughView, until } from './takeover-operator.js';

const missing = linuxDriverMissing();

if (!skipFile('takeover of a task in a hostd clone (real Linux driver)', missing)) {
  describe('takeover of a task in a hostd clone (real Linux driver)', () => {
    let h: HostdControlplane;
    let site: LoginWallSite;
    before(async () => {
      site = await startLoginWallSite();
      h = await startHostdControlplane({
        concurrency: 1,
        model: createPerTaskScriptModel(["Action: finished(content='in')"]),
        sites: [new URL(site.url).host],
        policyExtra: 'handoff: { on: [login, otp, captcha, call_user], timeout_s: 120 }\n',
      });
    });
    after(async () => {
      await h?.close();
      await site?.close();
    });

    it('hands the clone’s login wall to an operator and finishes after the hand-back', async (t) => {
      // The controlplane's own app and task service, served as `npm start` serves them.
      const served = { url: await h.controlplane.serve() };
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
      const active = h.controlplane.takeover.tasks.registry.get(taskId);
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

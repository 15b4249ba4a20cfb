// Issue 15 (a) and (b) in real clones: the production wiring (createControlplane against a real
// in-process hostd, root, Linux driver) with a `handoff` policy and a `shop` session profile. The
// task's clone hits the login wall → needs_user → a supervisor gets a link over REST, logs in
// through the interactive live view (input relayed into the clone's Chromium), fills "Save this
// login as: shop" and hands back on the page → the login is saved before the task resumes, the
// task finishes. A second task with `credential_mode: session` in a fresh clone starts signed in
// and never requests /login; no password, code, cookie value or storage note leaks anywhere.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loopbackPrincipal } from '../../controlplane/src/governance/auth/scopes.js';
import { openDatabase } from '../../controlplane/src/platform/store/database.js';
import { linuxDriverMissing } from '../hostd/support/linux-harness.js';
import { skipFile } from '../support/capabilities.js';
import { capturingLogger } from '../support/capturing-logger.js';
import { type LoginWallSite, startLoginWallSite } from '../support/login-wall-site.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { launchDashboardChromium } from './dashboard-support.js';
import { type HostdControlplane, startHostdControlplane } from './support/hostd-controlplane.js';
import { everything, leaksOf, recordingModel } from './support/leak-search.js';
import { jailReader, logInThroughView, until } from './takeover-supervisor.js';

const missing = linuxDriverMissing();

if (!skipFile('takeover of a task in a hostd clone (real Linux driver)', missing)) {
  describe('takeover of a task in a hostd clone (real Linux driver)', () => {
    let h: HostdControlplane;
    let site: LoginWallSite;
    const { logger, lines: logLines } = capturingLogger('trace');
    const modelRequests: string[] = [];
    before(async () => {
      site = await startLoginWallSite();
      h = await startHostdControlplane({
        concurrency: 1,
        logger,
        model: recordingModel(
          createPerTaskScriptModel(["Action: finished(content='in')"]),
          modelRequests,
        ),
        sites: [new URL(site.url).host],
        policyExtra: `handoff: { on: [login, otp, captcha, call_user], timeout_s: 120 }
credentials:
  modes: [none, session]
  sessions:
    - { name: shop, origins: ["${site.url}"] }
`,
      });
    });
    after(async () => {
      await h?.close();
      await site?.close();
    });

    it('hands the clone’s login wall to a supervisor, saves it at hand-back, and a fresh clone reuses it', async (t) => {
      // The controlplane's own app and task service, served as `npm start` serves them.
      const served = { url: await h.controlplane.serve() };
      const post = (path: string, body: unknown) =>
        fetch(`${served.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const startTask = async (body: Record<string, unknown>) => {
        const started = await post('/v1/tasks', { ...body, domains: [new URL(site.url).host] });
        assert.equal(started.status, 202, await started.clone().text());
        return ((await started.json()) as { trace_id: string }).trace_id;
      };
      const taskOf = async (id: string) =>
        (await (await fetch(`${served.url}/v1/tasks/${id}`)).json()) as {
          task: { status: string };
          result: unknown;
        };
      const status = async (id: string) => (await taskOf(id)).task.status;
      const taskId = await startTask({
        instruction: 'Open the account page',
        start_url: `${site.url}/account`,
      });
      await until('needs_user', async () => (await status(taskId)) === 'needs_user', 60_000);
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

      // The origins to save are prefilled with the origin the clone shows.
      const origins = () =>
        page.$eval('[name="session_origins"]', (el) => (el as HTMLInputElement).value);
      assert.equal(await origins(), site.url);
      // A save the service refuses (a bad profile name) is shown, and nothing is handed back.
      await page.type('[name="session_name"]', 'bad name!');
      await page.click('[data-takeover-handback] button');
      await page.waitForSelector('[data-takeover-error]:not([hidden])');
      const error = await page.$eval('[data-takeover-error]', (el) => el.textContent ?? '');
      assert.match(error, /Not handed back: the login was not saved: name: .*\(400\)/);
      assert.equal(await status(taskId), 'needs_user', 'a failed save does not hand back');
      assert.equal(h.controlplane.takeover.tasks.registry.get(taskId), active);
      // The supervisor fixes the name and hands back through the page.
      await page.$eval('[name="session_name"]', (el) => {
        (el as HTMLInputElement).value = '';
      });
      await page.type('[name="session_name"]', 'shop');
      assert.equal(await origins(), site.url);
      await page.click('[data-takeover-handback] button');
      await page.waitForSelector('[data-takeover-ended="handed-back"]');
      await until('the end', async () => (await status(taskId)) === 'finished', 60_000);
      const saved = (await h.controlplane.audit.list({ taskId, limit: 200 })).find(
        (row) => row.type === 'session-saved',
      );
      assert.deepEqual(saved?.data.origins, [site.url], 'saved at hand-back');

      // (b) A second task in a fresh clone starts signed in and never sees the login page.
      const seen = site.requests.length;
      const second = await startTask({
        instruction: 'Open the account page',
        start_url: `${site.url}/account`,
        credential_mode: 'session',
        session: 'shop',
        success_criteria: { url_matches: '*/account' },
      });
      await until(
        'the second task',
        async () => !['queued', 'running', 'needs_user'].includes(await status(second)),
        60_000,
      );
      const result = await taskOf(second);
      assert.equal(result.task.status, 'finished', JSON.stringify(result));
      const paths = site.requests.slice(seen).filter((request) => request.path !== '/favicon.ico');
      assert.deepEqual(
        paths.map((request) => [request.path, request.signedIn]),
        [['/account', true]],
        'the fresh clone went straight to /account, signed in, never to /login',
      );
      const order = (await h.controlplane.audit.list({ taskId: second, limit: 100 })).map(
        (row) => row.type,
      );
      // Admission is audited to the task first (issue 20), then the clone, the injection, the start.
      assert.deepEqual(order.slice(0, 4), [
        'policy-decided',
        'clone-created',
        'session-injected',
        'task-started',
      ]);

      // (d) Neither the password, the code, the cookie values nor the storage note anywhere.
      const database = openDatabase(h.controlplane.config.databasePath);
      const haystack = everything({
        db: database.db,
        dataDir: h.controlplane.config.dataDir,
        logLines,
        modelRequests,
        extra: [result, await taskOf(taskId), h.controlplane.sessions.list(loopbackPrincipal)],
      });
      database.close();
      assert.ok(haystack.length > 10 && modelRequests.length > 0 && logLines.length > 0);
      const secrets = [...site.issuedCookies(), site.password, site.storageNote];
      assert.deepEqual(leaksOf(haystack, secrets), [], 'no login value leaked');
      const otp = new RegExp(`(?<!\\d)${site.otp}(?!\\d)`);
      for (const [index, text] of haystack.entries()) {
        // Also as keystrokes: one-character key/text values of relayed events, put back together.
        const keys = [...text.matchAll(/"(?:key|text)":"([^"\\])"/g)].map((m) => m[1]).join('');
        assert.equal(keys.includes(site.password), false, `password typed in item ${index}`);
        assert.equal(otp.test(text) || otp.test(keys), false, `one-time code in item ${index}`);
      }
    });
  });
}

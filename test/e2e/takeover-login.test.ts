// Issue 15 (a), (c), (d): a task hits the login wall → needs_user → one Telegram message with a
// signed single-use link → a scripted supervisor in real Chromium logs in (password and one-time
// code) through the interactive live view, input relayed to the task's browser over CDP → hand
// back → the task finishes. A tenant-B supervisor, an expired link and a reused link are refused;
// neither the password nor the code is found in logs, traces, audit rows or model traffic.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requires } from '../support/capabilities.js';
import { launchDashboardChromium } from './dashboard-support.js';
import { everything } from './support/leak-search.js';
import { startTakeoverHarness, supervisorChat } from './takeover-harness.js';
import { jailReader, logInThroughView, until } from './takeover-supervisor.js';

describe(
  'e2e: human takeover of a login wall (real Chromium, local Bot API)',
  requires('chromium'),
  () => {
    it('hands the wall to a supervisor through a signed link, resumes with the note, refuses strangers, leaks nothing', async (t) => {
      const harness = await startTakeoverHarness({
        outputs: ["Action: finished(content='signed in as alice')"],
      });
      t.after(harness.close);
      const { site, auth } = harness;
      const rest = async (path: string, token: string, init: RequestInit = {}) =>
        fetch(`${harness.url}${path}`, {
          ...init,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        });
      const runner = await auth.token(['tasks:run', 'tasks:read'], 'acme');
      const started = await rest('/v1/tasks', runner, {
        method: 'POST',
        body: JSON.stringify({
          instruction: 'Open the account page and say who is signed in',
          start_url: `${site.url}/account`,
        }),
      });
      assert.equal(started.status, 202, await started.clone().text());
      const { trace_id: taskId } = (await started.json()) as { trace_id: string };
      const task = async () => {
        const body = (await (await rest(`/v1/tasks/${taskId}`, runner)).json()) as {
          task: { status: string };
          result: { status: string; summary: string | null } | null;
        };
        return { status: body.task.status, summary: body.result?.summary ?? null };
      };

      // needs_user on REST and SSE, the model not called, ONE supervisor message with the link.
      await until('needs_user', async () => (await task()).status === 'needs_user');
      const status = harness.tasks.events
        .since(taskId, 0)
        .find((entry) => entry.event.type === 'status' && entry.event.data.status === 'needs_user');
      assert.deepEqual(status?.event.data, {
        trace_id: taskId,
        status: 'needs_user',
        reason: 'login',
      });
      assert.equal(
        harness.modelRequests.length,
        0,
        'the model is not asked while a person is needed',
      );
      const photo = await harness.api.waitForCall('sendPhoto', () => true, 20_000);
      assert.equal(photo.params.chat_id, String(supervisorChat));
      assert.ok((photo.photoBytes ?? 0) > 1000, 'the screenshot is attached');
      const caption = String(photo.params.caption);
      assert.match(caption, /Task needs a person: login/);
      const link = /(http:\/\/127\.0\.0\.1:\d+\/takeover\/\S+)/.exec(caption)?.[1] ?? '';
      assert.ok(link.includes(taskId), caption);

      // (c) A tenant-B supervisor and a supervisor without `operate` get no link; an expired one fails.
      const beta = await auth.token(['operate'], 'beta');
      assert.equal(
        (await rest(`/v1/tasks/${taskId}/takeover`, beta, { method: 'POST' })).status,
        404,
      );
      const noOperate = await rest(`/v1/tasks/${taskId}/takeover`, runner, { method: 'POST' });
      assert.equal(noOperate.status, 403);
      const supervisorToken = await auth.token(['operate'], 'acme');
      const issued = await rest(`/v1/tasks/${taskId}/takeover`, supervisorToken, {
        method: 'POST',
      });
      assert.equal(issued.status, 200);
      const restLink = ((await issued.json()) as { url: string }).url;
      harness.linkSkew.ms = 11 * 60_000;
      const expired = await fetch(restLink, { redirect: 'manual' });
      harness.linkSkew.ms = 0;
      assert.equal(expired.status, 403);
      assert.match(await expired.text(), /expired/);

      // (a) The supervisor opens the Telegram link in Chromium and logs in through the live view.
      const chromium = await launchDashboardChromium();
      t.after(chromium.close);
      const page = await chromium.browser.newPage();
      await page.goto(link);
      await Promise.all([page.waitForNavigation(), page.click('[data-takeover-open] button')]);
      assert.equal(new URL(page.url()).pathname, `/takeover/${taskId}`);
      const banner = await page.$eval('[data-takeover-banner]', (el) => el.textContent ?? '');
      assert.match(banner, /You are in control/);
      const reused = await fetch(link, { redirect: 'manual' });
      assert.equal(reused.status, 403, 'a used link is refused');
      assert.match(await reused.text(), /already used/);
      await page.waitForFunction(
        () =>
          (document.querySelector('[data-takeover-screen]') as HTMLImageElement).naturalWidth > 0,
        { timeout: 20_000 },
      );

      await logInThroughView(page, jailReader(harness.jail), site, async () => {
        const rows = await harness.audit.list({ taskId, limit: 500 });
        const bursts = rows.filter((row) => row.type === 'takeover-input');
        const jailLines = harness.logLines
          .filter((line) => /takeover|screencast|input|focus|navigat/i.test(line))
          .slice(-12)
          .map((line) => line.slice(0, 400));
        return `input audited: ${bursts.map((row) => JSON.stringify(row.data)).join(' ')}; logs: ${jailLines.join('\n')}`;
      });
      assert.equal(site.issuedCookies().length, 1);

      await page.type('[name="note"]', 'signed in as alice');
      await page.click('[data-takeover-handback] button');
      await page.waitForSelector('[data-takeover-ended="handed-back"]');

      const ended = await until('the result', async () => {
        const current = await task();
        return current.status === 'needs_user' || current.status === 'running' ? null : current;
      });
      assert.equal(ended.status, 'finished', JSON.stringify(ended));
      assert.equal(ended.summary, 'signed in as alice');
      assert.equal(harness.modelRequests.length, 2, 'one model request after the hand-back');
      const request = harness.modelRequests[0] ?? '';
      assert.match(request, /The user completed: signed in as alice/);
      assert.equal(
        request.match(/"type":"image_url"/g)?.length,
        1,
        'no frame from the takeover is sent',
      );

      // Audit: start (needs_user, supervisor in control), input bursts as counts, end, refusals.
      const rows = (await harness.audit.list({ taskId, limit: 500 })).map((row) => ({
        type: row.type,
        data: row.data,
      }));
      const types = rows.map((row) => row.type);
      for (const type of [
        'takeover-started',
        'takeover-link-issued',
        'takeover-input',
        'takeover-ended',
        'takeover-refused',
      ])
        assert.ok(types.includes(type as never), `audited ${type}: ${types.join(', ')}`);
      const bursts = rows.filter((row) => row.type === 'takeover-input');
      const password = bursts.reduce(
        (sum, row) =>
          sum + Number((row.data as { targets: { password: number } }).targets.password),
        0,
      );
      assert.ok(password >= 1, `input into the password field counted: ${password}`);
      const endedRow = rows.find((row) => row.type === 'takeover-ended');
      assert.equal((endedRow?.data as { outcome?: string } | undefined)?.outcome, 'handed_back');

      // (d) Neither the password nor the one-time code anywhere.
      const haystack = everything({
        db: harness.database.db,
        dataDir: harness.dataDir,
        logLines: harness.logLines,
        modelRequests: harness.modelRequests,
        extra: [harness.api.calls],
      });
      assert.ok(haystack.length > 10 && harness.logLines.length > 0, 'rows, files and logs');
      const otp = new RegExp(`(?<!\\d)${site.otp}(?!\\d)`);
      for (const [index, text] of haystack.entries()) {
        // Also as keystrokes: one-character key/text values of relayed events, put back together.
        const keys = [...text.matchAll(/"(?:key|text)":"([^"\\])"/g)].map((m) => m[1]).join('');
        for (const form of [text, keys]) {
          assert.equal(form.includes(site.password), false, `password found in item ${index}`);
          assert.equal(otp.test(form), false, `one-time code found in item ${index}`);
        }
      }
    });
    it('a failed logged_in_check hands over (reason login) before the first model step', async (t) => {
      const harness = await startTakeoverHarness({ outputs: ["Action: finished(content='x')"] });
      t.after(harness.close);
      const runner = await harness.auth.token(['tasks:run', 'tasks:read'], 'acme');
      const started = await fetch(`${harness.url}/v1/tasks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${runner}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          instruction: 'Read the account note',
          start_url: `${harness.site.url}/account`,
          logged_in_check: { url_matches: '*/account', timeout_ms: 500 },
        }),
      });
      const { trace_id: taskId } = (await started.json()) as { trace_id: string };
      const status = await until('needs_user', async () =>
        harness.tasks.events
          .since(taskId, 0)
          .find(
            (entry) => entry.event.type === 'status' && entry.event.data.status === 'needs_user',
          ),
      );
      assert.deepEqual(status.event.data, {
        trace_id: taskId,
        status: 'needs_user',
        reason: 'login',
      });
      assert.equal(harness.modelRequests.length, 0, 'no blind run: the model was never asked');
      const startedRow = (await harness.audit.list({ taskId, limit: 50 })).find(
        (row) => row.type === 'takeover-started',
      );
      assert.deepEqual([startedRow?.data.reason, startedRow?.data.step], ['login', 0]);
      assert.ok(harness.tasks.abort(taskId));
    });
  },
);

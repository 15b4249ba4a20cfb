// Issue 22 (3): the vision judge, wired. A real page in real Chromium shows a magenta marker (at
// once, later, or never); the judge is an OpenAI-compatible server on loopback, configured as
// CLAWDIE_JUDGE_* like production, that decodes the screenshot it receives and answers
// `resolved` only when the marker's pixels are on it. Through the one composition root: a visual
// wait (POST /v1/waits), success_criteria.visual (verified and not) and a visual logged_in_check.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LoopEvent } from '../../controlplane/src/agent/loop/loop-types.js';
import type { BrowserOperator } from '../../controlplane/src/browser/operator/browser-operator.js';
import { createClawdieBrowserOperator } from '../../controlplane/src/browser/operator/clawdie-browser-operator.js';
import {
  type LocalJailService,
  startLocalJailService,
} from '../../controlplane/src/browser/provider/local-jail-service.js';
import { loopbackPrincipal } from '../../controlplane/src/governance/auth/scopes.js';
import type { BrowserRunTaskInput } from '../../controlplane/src/tasks/task-input.js';
import { requires } from '../support/capabilities.js';
import { createTestControlplane, type TestControlplane } from '../support/controlplane.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { type PixelJudge, startPixelJudge } from '../support/pixel-judge-server.js';
import { silentLogger } from '../support/silent-logger.js';
import { htmlPage, type StaticSite, startStaticSite } from '../support/static-site.js';
import { testLauncher } from '../support/test-launcher.js';

const MARKER_AFTER_MS = 4000;
const marker = (delayMs: number | null) =>
  htmlPage(
    'marker',
    `<p>Order status</p><div id="m" style="position:fixed;left:60px;top:120px;width:160px;height:160px"></div>
${delayMs === null ? '' : `<script>setTimeout(() => { document.getElementById('m').style.background = '#ff00ff'; }, ${delayMs});</script>`}`,
  );
const condition = 'a magenta square is shown';

describe(
  'e2e: the vision judge decides from the pixels of a real page',
  requires('chromium'),
  () => {
    let site: StaticSite;
    let jail: LocalJailService;
    let judge: PixelJudge;
    let controlplane: TestControlplane;
    let browser: BrowserOperator;
    let base = '';
    let policyDir = '';

    before(async () => {
      site = await startStaticSite({
        '/later': marker(MARKER_AFTER_MS),
        '/shown': marker(0),
        '/plain': marker(null),
      });
      jail = await startLocalJailService({
        egressProxyUrl: null,
        launcher: testLauncher,
        env: { ...process.env },
        logger: silentLogger,
      });
      browser = createClawdieBrowserOperator({
        url: jail.url,
        token: jail.token,
        timeoutMs: 20_000,
      });
      judge = await startPixelJudge({ marker: [255, 0, 255], apiKey: 'judge-key-0123456789' });
      policyDir = mkdtempSync(join(tmpdir(), 'clawdie-judge-policies-'));
      writeFileSync(
        join(policyDir, 'default.yaml'),
        `tenant: default\ndomains: { allow: ["${new URL(site.url).host}"] }\nmax_steps: 3\n`,
      );
      controlplane = await createTestControlplane({
        browsers: 'config',
        model: createPerTaskScriptModel(["Action: finished(content='done')"]),
        env: {
          CLAWDIE_JAIL_URL: jail.url,
          CLAWDIE_JAIL_TOKEN: jail.token,
          CLAWDIE_POLICY_DIR: policyDir,
          CLAWDIE_MAX_STEPS: '3',
          CLAWDIE_JUDGE_URL: judge.baseUrl,
          CLAWDIE_JUDGE_NAME: 'pixel-judge',
          CLAWDIE_JUDGE_API_KEY: 'judge-key-0123456789',
        },
      });
      base = await controlplane.serve();
    });
    after(async () => {
      await controlplane?.close();
      await judge?.close();
      await jail?.stop();
      await site?.close();
      if (policyDir) rmSync(policyDir, { recursive: true, force: true });
    });

    /** Runs a task through the task service the API uses; its loop events and its result. */
    async function run(input: BrowserRunTaskInput) {
      const events: LoopEvent[] = [];
      const plan = await controlplane.tasks.admit(input, loopbackPrincipal);
      const result = await (
        await controlplane.tasks.start(plan, (event) => void events.push(event))
      ).done;
      const verdicts = events.filter(
        (event): event is Extract<LoopEvent, { type: 'done-verified' | 'done-rejected' }> =>
          event.type === 'done-verified' || event.type === 'done-rejected',
      );
      return { result, verdicts };
    }

    it('resolves a visual wait once the marker appears, not before', async () => {
      const seen = judge.verdicts.length;
      // The page's timer starts after this (so the marker shows ≥ MARKER_AFTER_MS later), and
      // before navigate returns (so, under load, less than that after loadedAt).
      const requestedAt = Date.now();
      const response = await browser.execute([{ type: 'navigate', url: `${site.url}/later` }]);
      assert.equal(response.results[0]?.status, 'ok');
      const loadedAt = Date.now();
      const waited = await fetch(`${base}/v1/waits`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          conditions: [{ type: 'visual', description: condition }],
          timeout_ms: 30_000,
          block: true,
        }),
      });
      const outcome = (await waited.json()) as {
        status: string;
        detail: string;
        evaluations: number;
      };
      assert.equal(waited.status, 200);
      assert.equal(outcome.status, 'resolved', outcome.detail);
      assert.match(outcome.detail, /the marker is shown/);
      const verdicts = judge.verdicts.slice(seen);
      const first = verdicts[0];
      const last = verdicts.at(-1);
      assert.ok(first && last);
      assert.equal(first.decision, 'watching', 'the judge saw the page without the marker first');
      assert.ok(first.at - loadedAt < MARKER_AFTER_MS, 'before the marker was drawn');
      assert.equal(first.markerPixels, 0);
      assert.equal(last.decision, 'resolved');
      assert.ok(
        last.at - requestedAt >= MARKER_AFTER_MS,
        'resolved only after the marker appeared',
      );
      assert.ok(last.markerPixels >= 200, `${last.markerPixels} marker pixels`);
      // Temporal context: the earlier frame and the verdict given on it came along.
      assert.ok(last.images >= 2, `${last.images} images in the resolving request`);
      assert.match(
        last.prompt,
        /earlier verdicts on this condition.*watching \(no marker on screen/s,
      );
      assert.equal(outcome.evaluations, verdicts.length);
      assert.ok(
        verdicts.length <= 6,
        `${verdicts.length} judge calls: the gate skips the unchanged frames`,
      );
    });

    it('verifies success_criteria.visual from the screen, and rejects the finish without it', async () => {
      const before = judge.verdicts.length;
      const shown = await run({
        instruction: 'Check the order status',
        start_url: `${site.url}/shown`,
        success_criteria: { visual: condition },
      });
      assert.equal(shown.result.status, 'finished', JSON.stringify(shown.result));
      assert.equal(shown.result.step_count, 1);
      assert.deepEqual(
        shown.verdicts.map((event) => [event.type, event.unverified]),
        [['done-verified', []]],
      );
      assert.equal(judge.verdicts.at(-1)?.decision, 'resolved');
      // The judge's calls count in the task's usage, beside the model's.
      assert.deepEqual(
        [shown.result.usage?.model_calls, shown.result.usage?.judge_calls],
        [1, judge.verdicts.length - before],
      );
      assert.ok(judge.verdicts.length > before, 'the judge was asked');

      const plain = await run({
        instruction: 'Check the order status',
        start_url: `${site.url}/plain`,
        success_criteria: { visual: condition },
      });
      assert.notEqual(plain.result.status, 'finished', JSON.stringify(plain.result));
      const rejected = plain.verdicts[0];
      assert.equal(rejected?.type, 'done-rejected');
      assert.deepEqual(rejected.missing, [`${condition}: no marker on screen (0 px)`]);
      assert.ok(plain.verdicts.every((event) => event.type === 'done-rejected'));
    });

    it('evaluates a visual logged_in_check on the start page before the first step', async () => {
      const loggedIn = await run({
        instruction: 'Read the account note',
        start_url: `${site.url}/shown`,
        logged_in_check: { visual: condition },
      });
      assert.equal(loggedIn.result.status, 'finished', JSON.stringify(loggedIn.result));
      assert.equal(loggedIn.result.step_count, 1, 'the model ran');
      assert.equal(judge.verdicts.at(-1)?.decision, 'resolved');

      const asked = judge.verdicts.length;
      const loggedOut = await run({
        instruction: 'Read the account note',
        start_url: `${site.url}/plain`,
        logged_in_check: { visual: condition, timeout_ms: 3000 },
      });
      assert.equal(loggedOut.result.status, 'call_user', JSON.stringify(loggedOut.result));
      assert.equal(loggedOut.result.step_count, 0, 'no blind run: the model was never asked');
      assert.match(loggedOut.result.summary ?? '', /logged_in_check failed/);
      assert.ok(judge.verdicts.length > asked, 'the judge looked at the start page');
      assert.deepEqual(
        [loggedOut.result.usage?.model_calls, loggedOut.result.usage?.judge_calls],
        [0, judge.verdicts.length - asked],
        'only the judge was called',
      );
      assert.equal(judge.verdicts.at(-1)?.decision, 'watching');
    });
  },
);

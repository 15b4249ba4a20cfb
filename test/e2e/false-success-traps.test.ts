// Issue 23 (3, 4): no silent false success. Local trap pages in real Chromium, a task each through
// the one composition root with a scripted model that clicks the page's button and then claims
// "Payment of EUR 4,999 completed": the compact result (and GET /v1/tasks/:id) says whether what
// went over the wire backs the claim — a "Submitted!" page whose POST got 500, a POST answered
// 303 → 200, a page that sent nothing, a fetch POST that died with a network error.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { NetworkEvidence } from '@clawdie/kit/jail-api';
import {
  type LocalJailService,
  startLocalJailService,
} from '../../controlplane/src/browser/provider/local-jail-service.js';
import { loopbackPrincipal } from '../../controlplane/src/governance/auth/scopes.js';
import { taskResult } from '../../controlplane/src/ingress/dashboard/task-detail-page.js';
import type { CompactResult } from '../../controlplane/src/tasks/task-input.js';
import { requires } from '../support/capabilities.js';
import { createTestControlplane, type TestControlplane } from '../support/controlplane.js';
import { startEvidenceTraps } from '../support/evidence-traps-site.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { silentLogger } from '../support/silent-logger.js';
import type { StaticSite } from '../support/static-site.js';
import { testLauncher } from '../support/test-launcher.js';

const CLAIM = 'Payment of EUR 4,999 completed';

describe(
  'e2e: finished() is checked against the requests the task made',
  requires('chromium'),
  () => {
    let site: StaticSite;
    let jail: LocalJailService;
    let controlplane: TestControlplane;
    let base = '';
    let policyDir = '';

    before(async () => {
      site = await startEvidenceTraps();
      jail = await startLocalJailService({
        egressProxyUrl: null,
        launcher: testLauncher,
        env: { ...process.env },
        logger: silentLogger,
      });
      policyDir = mkdtempSync(join(tmpdir(), 'clawdie-traps-policies-'));
      writeFileSync(
        join(policyDir, 'default.yaml'),
        `tenant: default\ndomains: { allow: ["${new URL(site.url).host}"] }\nmax_steps: 4\n`,
      );
      controlplane = await createTestControlplane({
        browsers: 'config',
        model: createPerTaskScriptModel([
          "Action: click(start_box='(500,400)')",
          `Action: finished(content='${CLAIM}')`,
        ]),
        env: {
          CLAWDIE_JAIL_URL: jail.url,
          CLAWDIE_JAIL_TOKEN: jail.token,
          CLAWDIE_POLICY_DIR: policyDir,
          CLAWDIE_MAX_STEPS: '4',
        },
      });
      base = await controlplane.serve();
    });
    after(async () => {
      await controlplane?.close();
      await jail?.stop();
      await site?.close();
      if (policyDir) rmSync(policyDir, { recursive: true, force: true });
    });

    /** Runs the trap at `path`; its compact result, as returned and as REST serves it. */
    async function trap(path: string) {
      const plan = await controlplane.tasks.admit(
        { instruction: 'Pay the invoice', start_url: `${site.url}${path}` },
        loopbackPrincipal,
      );
      const result = await (await controlplane.tasks.start(plan)).done;
      assert.equal(result.status, 'finished', JSON.stringify(result));
      assert.equal(result.summary, CLAIM);
      const response = await fetch(`${base}/v1/tasks/${result.trace_id}`);
      const detail = (await response.json()) as {
        result: CompactResult;
        steps: { network: NetworkEvidence | null }[];
      };
      assert.deepEqual(detail.result.verification, result.verification, 'REST serves the same');
      return { result, verification: result.verification, steps: detail.steps };
    }

    it('a page that shows "Submitted!" while its POST got 500: unverified, with the 500', async () => {
      const { result, verification, steps } = await trap('/pay-500');
      assert.equal(verification?.verdict, 'unverified', JSON.stringify(verification));
      assert.deepEqual(
        verification?.evidence.map(({ method, url, status }) => [method, url, status]),
        [['POST', `${site.url}/api/pay?card=&cvc=`, 500]],
      );
      // The dashboard's task page shows the verdict with the request it rests on.
      const row = await controlplane.repository.getTask(result.trace_id);
      assert.ok(row);
      const page = String(await taskResult(row));
      assert.match(page, /id="verification"[^>]*><strong>unverified<\/strong>/);
      assert.match(page, /POST http:\/\/127\.0\.0\.1:\d+\/api\/pay\?card=&amp;cvc= → 500/);
      // The step's trace row keeps what its click caused.
      const post = steps[0]?.network?.entries.find((entry) => entry.method === 'POST');
      assert.equal(post?.status, 500, JSON.stringify(steps[0]));
    });

    it('a form POST answered 303 → 200: verified, the redirect and the page it led to', async () => {
      const { verification } = await trap('/order');
      assert.equal(verification?.verdict, 'verified', JSON.stringify(verification));
      assert.deepEqual(
        verification?.evidence.map(({ method, url, status }) => [method, url, status]),
        [
          ['POST', `${site.url}/order/submit`, 303],
          ['GET', `${site.url}/order/thanks`, 200],
        ],
      );
    });

    it('a claimed payment where no request was made: unverified, not a plain finished', async () => {
      const { verification } = await trap('/claim');
      assert.equal(verification?.verdict, 'unverified', JSON.stringify(verification));
      assert.match(verification?.reason ?? '', /no state-changing request/);
      assert.deepEqual(verification?.evidence, []);
    });

    it('a fetch POST that fails with a network error: unverified, with the error', async () => {
      const { verification } = await trap('/offline');
      assert.equal(verification?.verdict, 'unverified', JSON.stringify(verification));
      const [post] = verification?.evidence ?? [];
      assert.equal(post?.method, 'POST');
      assert.equal(post?.status, null);
      assert.match(post?.error ?? '', /ERR_CONNECTION_REFUSED/);
    });
  },
);

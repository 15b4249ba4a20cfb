import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createReplayModel } from '../../../../controlplane/src/agent/model/replay-model.js';
import { createSingleBrowserProvider } from '../../../../controlplane/src/browser/provider/browser-provider.js';
import { createSessionInjector } from '../../../../controlplane/src/browser/sessions/session-injector.js';
import type {
  ApprovalRequest,
  Approver,
} from '../../../../controlplane/src/governance/approvals/approval-types.js';
import {
  parsePolicy,
  policySetOf,
} from '../../../../controlplane/src/governance/policy/load-policies.js';
import { createPolicyAdmission } from '../../../../controlplane/src/governance/policy/task-admission.js';
import { createTaskService } from '../../../../controlplane/src/tasks/task-service.js';
import { createFakeOperator } from '../../../support/fake-operator.js';
import { createFakeSessionTransfer } from '../../../support/fake-session-transfer.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { submit } from '../../../support/submit-task.js';
import { createTestTaskDeps } from '../../../support/test-task-deps.js';
import { bundle, origin, principalOf, sessionFixture } from './session-fixture.js';

const policy = parsePolicy(
  `tenant: acme
domains: { allow: ["127.0.0.1:8123"] }
max_steps: 5
credentials:
  modes: [none, session]
  sessions: [{ name: shop, origins: ["${origin}"], require_approval: true }]
approvals: { timeout_s: 7 }
`,
  'acme.yaml',
);

/** A task service whose one browser has a jail-service endpoint, injecting through a fake clone. */
async function setup(answer: boolean | null) {
  const sessions = sessionFixture();
  await sessions.service.saveSessionFromTask(
    { taskId: 't-acme', name: 'shop', origins: [origin] },
    principalOf('acme'),
  );
  const fresh = createFakeSessionTransfer(bundle);
  const asked: ApprovalRequest[] = [];
  const approver: Approver = {
    async request(request) {
      asked.push(request);
      return answer
        ? { approved: true, approvalId: 'a1', by: 'telegram:1' }
        : { approved: false, approvalId: 'a1', by: null, why: 'expired' };
    },
  };
  const fake = createFakeOperator();
  const test = createTestTaskDeps({
    model: createReplayModel(["Action: finished(content='in')"]),
    operator: fake.operator,
  });
  const tasks = createTaskService(
    {
      ...test.deps,
      audit: sessions.audit,
      admission: createPolicyAdmission({
        policies: policySetOf([policy]),
        audit: sessions.audit,
        defaults: { maxSteps: 5 },
        sessions: (tenant, name) => sessions.service.meta(tenant, name),
        now: sessions.clock.now,
      }),
      prepareLease: createSessionInjector({
        sessions: sessions.service,
        ...(answer === null ? {} : { approver }),
        transferFor: () => fresh,
        logger: silentLogger,
      }),
    },
    undefined,
    createSingleBrowserProvider(fake.operator, { url: 'http://clone', token: 't' }),
  );
  const run = async () =>
    (
      await submit(
        tasks,
        { instruction: 'open the account', credential_mode: 'session', session: 'shop' },
        undefined,
        principalOf('acme', ['tasks:run']),
      )
    ).done;
  return { sessions, fresh, asked, fake, run, close: () => tasks.close() };
}

describe('session injection before the first step', () => {
  it('asks a supervisor when the policy requires it, then injects and audits the count', async () => {
    const s = await setup(true);
    const result = await s.run();
    await s.close();
    assert.equal(result.status, 'finished');
    assert.equal(s.asked.length, 1);
    assert.equal(s.asked[0]?.timeoutMs, 7000);
    assert.match(s.asked[0]?.reason ?? '', /saved session shop/);
    assert.deepEqual(s.fresh.imported, [bundle]);
    const rows = (await s.sessions.audit.list({ limit: 100 })).map((row) => row.type);
    assert.ok(rows.indexOf('session-injected') < rows.indexOf('task-started'));
  });

  it('ends APPROVAL_DENIED without injecting or showing a page when nobody approves', async () => {
    for (const answer of [false, null]) {
      const s = await setup(answer);
      const result = await s.run();
      await s.close();
      assert.equal(result.status, 'error');
      assert.equal(result.error?.code, 'APPROVAL_DENIED');
      assert.deepEqual(s.fresh.imported, []);
      assert.equal(s.fake.calls(), 0, 'the browser was never used');
    }
  });

  it('ends SESSION_INJECT_FAILED when the profile was revoked after admission', async () => {
    const s = await setup(true);
    await s.sessions.service.revoke('shop', principalOf('acme'));
    // Admission now refuses it outright; a revoke between admission and the lease is the race
    // the injector closes: it re-checks the profile itself.
    await assert.rejects(s.run(), { code: 'POLICY_DENIED' });
    const plan = {
      tenant: 'acme',
      actor: 'a',
      input: { instruction: 'x' },
      rules: {
        kind: 'policy' as const,
        policy,
        credentialMode: 'session' as const,
        domains: undefined,
        decision: { decision: 'allow' as const, reason: 'test' },
        session: { name: 'shop', origins: [origin], requireApproval: false },
      },
    };
    const inject = createSessionInjector({
      sessions: s.sessions.service,
      transferFor: () => s.fresh,
      logger: silentLogger,
    });
    const lease = await inject(
      plan,
      't9',
      {
        id: 'x',
        service: { url: 'http://c', token: 't' },
        operator: s.fake.operator,
        release: async () => undefined,
      },
      new AbortController().signal,
    );
    await assert.rejects(lease.operator.screenshot(), { code: 'SESSION_INJECT_FAILED' });
    assert.deepEqual(s.fresh.imported, []);
    await s.close();
  });
});

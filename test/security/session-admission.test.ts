import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { admitTask } from '../../controlplane/src/governance/policy/admit-task.js';
import {
  parsePolicy,
  policySetOf,
} from '../../controlplane/src/governance/policy/load-policies.js';
import {
  allowAllAdmission,
  createPolicyAdmission,
} from '../../controlplane/src/governance/policy/task-admission.js';
import type { BrowserRunTaskInput } from '../../controlplane/src/tasks/task-input.js';
import { isDenied } from '../../controlplane/src/tasks/task-plan.js';
import {
  origin,
  principalOf,
  sessionFixture,
} from '../controlplane/browser/sessions/session-fixture.js';

const policyText = (tenant: string, origins: string, approval = false) => `tenant: ${tenant}
domains: { allow: ["127.0.0.1:8123", "127.0.0.2:8123"] }
max_steps: 10
credentials:
  modes: [none, session]
  sessions:
    - { name: shop, origins: [${origins}], require_approval: ${approval} }
    - { name: wide, origins: ["${origin}"] }
`;
const acme = parsePolicy(policyText('acme', `"${origin}"`), 'acme.yaml');
const input: BrowserRunTaskInput = {
  instruction: 'check the account',
  start_url: `${origin}/account`,
  credential_mode: 'session' as const,
  session: 'shop',
};
const live = { origins: [origin], expiresAt: 2_000, revokedAt: null };
const admit = (
  facts: Parameters<typeof admitTask>[4],
  policy = acme,
  task: BrowserRunTaskInput = input,
) => admitTask(task, principalOf('acme', ['tasks:run']), policy, { maxSteps: 10 }, facts);
const reason = (outcome: ReturnType<typeof admit>) =>
  isDenied(outcome) ? outcome.decision.reason : 'admitted';

describe('security: credential_mode session admission', () => {
  it('admits a live profile the policy allows and carries the reference in the plan', () => {
    const plan = admit({ sessionProfile: live, now: 1_000 });
    assert.ok(!isDenied(plan));
    assert.ok(plan.rules.kind === 'policy');
    assert.deepEqual(plan.rules.session, {
      name: 'shop',
      origins: [origin],
      requireApproval: false,
    });
  });

  it('refuses an expired, a revoked and a missing profile', () => {
    assert.match(reason(admit({ sessionProfile: live, now: 2_000 })), /has expired/);
    assert.match(reason(admit({ sessionProfile: { ...live, revokedAt: 1 }, now: 1 })), /revoked/);
    assert.match(reason(admit({ sessionProfile: null, now: 1 })), /no session profile shop/);
  });

  it('refuses a profile whose origins exceed the policy allowlist or the task domains', () => {
    const wider = { ...live, origins: [origin, 'http://127.0.0.2:8123'] };
    assert.match(reason(admit({ sessionProfile: wider, now: 1 })), /outside the policy's origins/);
    const both = parsePolicy(
      policyText('acme', `"${origin}", "http://127.0.0.2:8123"`),
      'acme.yaml',
    );
    const narrow = { ...input, domains: ['127.0.0.1:8123'] };
    assert.match(
      reason(admit({ sessionProfile: wider, now: 1 }, both, narrow)),
      /outside the task's domains/,
    );
  });

  it('refuses a profile the policy does not list, a session without a policy, and bad input', async () => {
    const other = { ...input, session: 'unlisted' };
    assert.match(reason(admit({ sessionProfile: live, now: 1 }, acme, other)), /not allowed by/);
    const without = parsePolicy(
      'tenant: acme\ndomains: { allow: ["127.0.0.1:8123"] }\nmax_steps: 5\n',
      'acme.yaml',
    );
    assert.match(
      reason(admit({ sessionProfile: live, now: 1 }, without)),
      /credential_mode session/,
    );
    await assert.rejects(
      allowAllAdmission('demo').admit(input, principalOf('acme')),
      /needs a tenant policy/,
    );
    const { session: _dropped, ...missing } = input;
    assert.match(reason(admit({}, acme, missing)), /session: is required/);
  });

  it("never lets tenant B's task use tenant A's profile of the same name", async () => {
    const { service, audit } = sessionFixture();
    await service.saveSessionFromTask(
      { taskId: 't-acme', name: 'shop', origins: [origin] },
      principalOf('acme'),
    );
    const policies = policySetOf([
      acme,
      parsePolicy(policyText('globex', `"${origin}"`), 'globex.yaml'),
    ]);
    const admission = createPolicyAdmission({
      policies,
      audit,
      defaults: { maxSteps: 10 },
      sessions: (tenant, name) => service.meta(tenant, name),
      now: () => 1_700_000_000_000,
    });
    assert.ok(await admission.admit(input, principalOf('acme', ['tasks:run'])));
    await assert.rejects(admission.admit(input, principalOf('globex', ['tasks:run'])), {
      code: 'POLICY_DENIED',
      message: /tenant globex has no session profile shop/,
    });
  });
});

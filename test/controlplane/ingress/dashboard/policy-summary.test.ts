// The Settings page's policy card names every block that changes what a task may do, `handoff`
// (takeover by a supervisor) and `keep_session` (kept browsers) included.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { policySchema } from '../../../../controlplane/src/governance/policy/policy-schema.js';
import { policyRules } from '../../../../controlplane/src/ingress/dashboard/policy-summary.js';

const rules = (policy: Record<string, unknown>) =>
  Object.fromEntries(
    policyRules(
      policySchema.parse({
        tenant: 'acme',
        domains: { allow: ['a.test'] },
        max_steps: 5,
        ...policy,
      }),
    ),
  );

describe('policy summary', () => {
  it('shows the handoff block: the situations, the wait and what a timeout does', () => {
    const shown = rules({
      handoff: { on: ['call_user', 'otp'], timeout_s: 120, on_timeout: 'abort' },
    });
    assert.equal(
      shown['Takeover (handoff)'],
      'on call user, otp; waits 120 s for a supervisor, then the task is aborted',
    );
    assert.equal(rules({})['Takeover (handoff)'], 'off: call_user ends the task');
  });

  it('shows the keep_session block: allowed or not, how many, how long idle', () => {
    assert.equal(
      rules({ keep_session: { max_sessions: 3, idle_ttl_s: 60 } })['Kept sessions'],
      'allowed: at most 3 at once, each closed after 60 s unused',
    );
    assert.equal(rules({ keep_session: { allowed: false } })['Kept sessions'], 'not allowed');
  });
});

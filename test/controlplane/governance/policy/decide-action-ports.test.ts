// Issue 20 point 6 (found by the hostile-model suite): the gate matched frames, destinations and
// secret hosts by host name alone, so with sites on one host and distinct ports — distinct
// origins — a rule for the payment host's port applied to the shop too, a frame of any other port
// passed as inside the task's domains, and the shop's secret could be approved into another
// port's frame. A pattern with `:port` now names that port only; one without still every port.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FieldKind, LandingTarget } from '@clawdie/kit/jail-api';
import { decideAction } from '../../../../controlplane/src/governance/policy/decide-action.js';
import { placeMatches } from '../../../../controlplane/src/governance/policy/domain-match.js';
import { parsePolicy } from '../../../../controlplane/src/governance/policy/load-policies.js';

const shop = 'http://127.0.0.1:9001';
const pay = 'http://127.0.0.1:9002';
const evil = 'http://127.0.0.1:9003';
const policy = parsePolicy(
  `tenant: default
domains: { allow: ["127.0.0.1:9001", "127.0.0.1:9002", "pay.example"] }
max_steps: 10
credentials:
  modes: [none, supervisor_approved]
  secrets: [{ name: pw, domains: ["127.0.0.1:9001"] }]
approvals:
  actions:
    - { action: "*", hosts: ["127.0.0.1:9002", pay.example], decision: needs_approval, reason: payment host }
`,
  'default.yaml',
);
const context = (target: LandingTarget) => ({
  policy,
  taskDomains: ['127.0.0.1:9001', '127.0.0.1:9002', 'pay.example:8443'],
  currentUrl: `${shop}/page`,
  credentialMode: 'supervisor_approved' as const,
  target,
});
const inFrames = (field: FieldKind, ...frames: string[]): LandingTarget => ({
  frames: frames.map((url) => ({ url: `${url}/x`, origin: url })),
  element: { tag: 'input', input_type: null, autocomplete: null, field },
  destination: null,
});
const click = { type: 'click', x: 10, y: 10 } as const;
const typeSecret = { type: 'type', text: '{{secret:pw}}' } as const;

describe('the gate tells ports apart', () => {
  it('matches a pattern with a port on that port only, one without on every port', () => {
    assert.equal(placeMatches(`${pay}/charge`, '127.0.0.1:9002'), true);
    assert.equal(placeMatches(shop, '127.0.0.1:9002'), false);
    assert.equal(placeMatches('https://pay.example:8443/', 'pay.example'), true);
    assert.equal(placeMatches('https://pay.example/', 'pay.example:443'), true);
    assert.equal(placeMatches('file:///etc/passwd', '*'), false);
  });

  it('applies the payment port’s rule to its frames, not to the shop’s', () => {
    assert.equal(decideAction(click, context(inFrames('other', shop))).decision, 'allow');
    const framed = decideAction(click, context(inFrames('other', shop, pay)));
    assert.deepEqual([framed.decision, framed.kind], ['needs_approval', 'host_rule']);
    // A rule naming a host without a port still covers every port of it.
    const other = decideAction(click, context(inFrames('other', 'https://pay.example:8443')));
    assert.equal(other.decision, 'needs_approval');
  });

  it('refuses a target in a frame of a port outside the task’s domains', () => {
    const decided = decideAction(click, context(inFrames('other', shop, evil)));
    assert.deepEqual([decided.decision, decided.kind], ['deny', 'frame_origin']);
    assert.match(decided.reason, /frame of 127\.0\.0\.1:9003/);
  });

  it('refuses the shop’s secret in another port’s password field before asking anyone', () => {
    const decided = decideAction(typeSecret, context(inFrames('password', shop, pay)));
    assert.deepEqual([decided.decision, decided.kind], ['deny', 'credential']);
    const own = decideAction(typeSecret, context(inFrames('password', shop)));
    assert.deepEqual([own.decision, own.kind], ['needs_approval', 'credential']);
  });
});

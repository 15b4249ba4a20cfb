// Review of the landing gate (keys): the gate took a key or a `type` as activating its target only
// for a trailing newline or an Enter key, while the input runner presses Enter for every `\n` and
// `\r` a `type` holds, and Space (on its keyup) clicks a focused button. `type('hello\nworld')` in
// a shop field whose form posts to the payment host, or Space on a focused Pay button, submitted
// there unapproved. Now each of them is the navigation it is; typing in a text field stays typing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Action, FieldKind, LandingTarget } from '@clawdie/kit/jail-api';
import { decideAction } from '../../../../controlplane/src/governance/policy/decide-action.js';
import { needsLanding } from '../../../../controlplane/src/governance/policy/landing-facts.js';
import { parsePolicy } from '../../../../controlplane/src/governance/policy/load-policies.js';

const shop = 'http://127.0.0.1:9001';
const pay = 'http://127.0.0.1:9002';
const policy = parsePolicy(
  `tenant: default
domains: { allow: ["127.0.0.1:9001", "127.0.0.1:9002"] }
max_steps: 10
approvals:
  actions:
    - { action: "*", hosts: ["127.0.0.1:9002"], decision: needs_approval, reason: payment host }
`,
  'default.yaml',
);
/** The focus on a shop element (a field or a button) whose form posts to the payment host. */
const focusOn = (tag: string, field: FieldKind): LandingTarget => ({
  frames: [{ url: `${shop}/cart`, origin: shop }],
  element: { tag, input_type: tag === 'input' ? 'text' : null, autocomplete: null, field },
  destination: { kind: 'form', url: `${pay}/charge`, method: 'POST', new_window: false },
});
const field = focusOn('input', 'text');
const button = focusOn('button', 'other');
const decide = (action: Action, target: LandingTarget) =>
  decideAction(action, {
    policy,
    taskDomains: ['127.0.0.1:9001', '127.0.0.1:9002'],
    currentUrl: `${shop}/cart`,
    credentialMode: 'none',
    target,
  });
const asks = (action: Action, target: LandingTarget) => {
  const verdict = decide(action, target);
  assert.deepEqual(
    [verdict.decision, verdict.kind],
    ['needs_approval', 'host_rule'],
    JSON.stringify(action),
  );
};
const allows = (action: Action, target: LandingTarget) =>
  assert.equal(decide(action, target).decision, 'allow', JSON.stringify(action));

describe('keys and typing that activate the target are navigations', () => {
  it('asks for a trailing newline (the control, stopped before)', () => {
    asks({ type: 'type', text: 'hello\n' }, field);
    asks({ type: 'press', key: 'Enter' }, field);
  });

  it('asks for a newline or carriage return anywhere in the text', () => {
    asks({ type: 'type', text: 'hello\nworld' }, field);
    asks({ type: 'type', text: 'hello\rworld' }, field);
    allows({ type: 'type', text: 'hello world' }, field);
  });

  it('asks for Space on a focused button, also on its keyup and in a typed text', () => {
    for (const key of ['space', 'Space', 'spacebar']) {
      asks({ type: 'press', key }, button);
      asks({ type: 'keyup', key }, button);
    }
    asks({ type: 'keydown', key: 'space' }, button);
    asks({ type: 'hotkey', keys: ['space'] }, button);
    asks({ type: 'type', text: 'a b' }, button);
    // In a text field Space types a space.
    allows({ type: 'press', key: 'space' }, field);
  });

  it('asks for Enter on keyup and inside a chord written as one string', () => {
    asks({ type: 'keyup', key: 'Enter' }, field);
    asks({ type: 'hotkey', keys: ['ctrl+enter'] }, field);
    asks({ type: 'hotkey', keys: ['shift return'] }, field);
    allows({ type: 'hotkey', keys: ['ctrl+a'] }, field);
  });

  it('takes a landing for keyup (the gate needs its target)', () => {
    assert.equal(needsLanding({ type: 'keyup', key: 'space' }), true);
  });
});

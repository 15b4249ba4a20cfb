import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FieldKind, LandingTarget } from '@clawdie/kit/jail-api';
import {
  decideCallUser,
  decideTask,
} from '../../../../controlplane/src/governance/policy/decide.js';
import { decideAction } from '../../../../controlplane/src/governance/policy/decide-action.js';
import {
  patternWithin,
  urlAllowed,
} from '../../../../controlplane/src/governance/policy/domain-match.js';
import { parsePolicy } from '../../../../controlplane/src/governance/policy/load-policies.js';

const acme = parsePolicy(
  `tenant: acme
domains: { allow: [shop.example, "*.shop.example", bank.example], outside: needs_approval }
max_steps: 40
recording: always
credentials:
  modes: [none, supervisor_approved]
  secrets: [{ name: bank_password, domains: [bank.example] }]
approvals:
  call_user: needs_approval
  actions:
    - { action: "*", hosts: [pay.shop.example], decision: needs_approval, reason: payments need a supervisor }
    - { action: type, text: "\\\\b\\\\d{16}\\\\b", decision: deny, reason: no card numbers }
`,
  'acme.yaml',
);
const open = parsePolicy(
  'tenant: default\ndomains: { allow: ["*"] }\nmax_steps: 10\nrecording: "off"\n',
  'default.yaml',
);
const context = (overrides: Partial<Parameters<typeof decideAction>[1]> = {}) => ({
  policy: acme,
  taskDomains: ['shop.example', '*.shop.example', 'bank.example'],
  currentUrl: 'https://bank.example/login',
  credentialMode: 'supervisor_approved' as const,
  ...overrides,
});

/** A landing target: the frames from the top down (URLs), the element, a destination. */
function landed(
  frames: string[],
  field: FieldKind = 'other',
  destination: LandingTarget['destination'] = null,
  autocomplete: string | null = null,
): LandingTarget {
  return {
    frames: frames.map((url) => ({ url, origin: new URL(url).origin })),
    element: { tag: 'input', input_type: null, autocomplete, field },
    destination,
  };
}

describe('policy decisions', () => {
  it('checks that task domains are a subset of the policy', () => {
    assert.equal(patternWithin('a.shop.example', ['*.shop.example']), true);
    assert.equal(patternWithin('*.a.shop.example', ['*.shop.example']), true);
    assert.equal(patternWithin('*.shop.example', ['shop.example']), false);
    assert.equal(patternWithin('anything.org', ['*']), true);
    // Ports: a pattern without one means 80 and 443, so it cannot widen to another port.
    assert.equal(patternWithin('shop.example:8443', ['shop.example']), false);
    assert.equal(patternWithin('shop.example:443', ['shop.example']), true);
    assert.equal(patternWithin('127.0.0.1:8700', ['*']), false);
    assert.equal(patternWithin('shop.example', ['shop.example:8443']), false);
    assert.equal(patternWithin('shop.example:8443', ['*.example', 'shop.example:8443']), true);
    assert.equal(urlAllowed('http://127.0.0.1:8700/v1/tasks', ['*']), false);
    assert.equal(urlAllowed('http://127.0.0.1:8700/', ['127.0.0.1']), false);
    assert.equal(urlAllowed('http://127.0.0.1:8700/', ['127.0.0.1:8700']), true);
    assert.equal(urlAllowed('https://shop.example/', ['shop.example']), true);
    assert.equal(urlAllowed('http://shop.example:80/', ['shop.example']), true);
    assert.deepEqual(
      decideTask({ instruction: 'x', domains: ['shop.example', 'evil.example'] }, acme).decision,
      {
        decision: 'deny',
        reason:
          "domains evil.example are outside tenant acme's policy (shop.example, *.shop.example, bank.example)",
      },
    );
    const ok = decideTask({ instruction: 'x', domains: ['www.shop.example'] }, acme);
    assert.equal(ok.decision.decision, 'allow');
    assert.deepEqual(ok.input.domains, ['www.shop.example']);
  });

  it('defaults domains and max_steps from the policy and forces recording when it says always', () => {
    const { input } = decideTask({ instruction: 'x' }, acme);
    assert.deepEqual(input.domains, ['shop.example', '*.shop.example', 'bank.example']);
    assert.equal(input.max_steps, 40);
    assert.equal(input.record, true);
    assert.equal(decideTask({ instruction: 'x' }, open).input.domains, undefined);
  });

  it('admits a start URL on a port the policy lists beside "*" (the union, not "*" alone)', () => {
    const wide = parsePolicy(
      'tenant: default\ndomains: { allow: ["*", "127.0.0.1:8701"] }\nmax_steps: 10\n',
      'default.yaml',
    );
    const admitted = decideTask({ instruction: 'x', start_url: 'http://127.0.0.1:8701/' }, wide);
    assert.equal(admitted.decision.decision, 'allow', admitted.decision.reason);
    assert.deepEqual(
      admitted.input.domains,
      ['*', '127.0.0.1:8701'],
      'the task runs with the union',
    );
    assert.equal(
      decideTask({ instruction: 'x', start_url: 'https://any.example/' }, wide).decision.decision,
      'allow',
    );
    const refused = decideTask({ instruction: 'x', start_url: 'http://127.0.0.1:8700/' }, wide);
    assert.equal(refused.decision.decision, 'deny');
    assert.match(
      refused.decision.reason,
      /127\.0\.0\.1:8700 is outside tenant default's domains\.allow \(\*, 127\.0\.0\.1:8701; policy file default\.yaml/,
    );
    const own = decideTask(
      { instruction: 'x', start_url: 'http://127.0.0.1:8700/', domains: ['*'] },
      wide,
    );
    assert.match(own.decision.reason, /is outside the task's domains \(\*\)/);
  });

  it('refuses start URLs, credential modes, step limits and recording the policy does not allow', () => {
    const reasons = [
      decideTask({ instruction: 'x', start_url: 'https://evil.example/' }, acme),
      decideTask({ instruction: 'x', credential_mode: 'supervisor_approved' }, open),
      decideTask({ instruction: 'x', max_steps: 41 }, acme),
      decideTask({ instruction: 'x', record: true }, open),
    ].map((admission) => `${admission.decision.decision}: ${admission.decision.reason}`);
    assert.deepEqual(reasons, [
      `deny: start_url https://evil.example/: evil.example on port 80 or 443 is outside tenant acme's domains.allow (shop.example, *.shop.example, bank.example; policy file acme.yaml, else default.yaml); a pattern without :port covers ports 80 and 443 only — add "evil.example" to allow it`,
      'deny: credential_mode supervisor_approved is not allowed for tenant default',
      "deny: max_steps 41 exceeds the policy's 40",
      'deny: recording is off by policy',
    ]);
  });

  it('asks before navigating outside the task domains when the policy says so, else denies', () => {
    const away = { type: 'navigate' as const, url: 'https://evil.example/' };
    assert.equal(decideAction(away, context()).decision, 'needs_approval');
    const strict = { ...acme, domains: { ...acme.domains, outside: 'deny' as const } };
    assert.equal(decideAction(away, context({ policy: strict })).decision, 'deny');
    assert.equal(
      decideAction({ type: 'navigate', url: 'https://bank.example/x' }, context()).decision,
      'allow',
    );
  });

  it('decides secret placeholders by mode, tenant list and host', () => {
    const typing = { type: 'type' as const, text: '{{secret:bank_password}}' };
    const inPassword = { target: landed(['https://bank.example/login'], 'password') };
    assert.deepEqual(decideAction(typing, context(inPassword)), {
      decision: 'needs_approval',
      reason: 'type secret bank_password on bank.example',
      kind: 'credential',
    });
    assert.match(
      decideAction(typing, context({ target: landed(['https://shop.example/'], 'password') }))
        .reason,
      /may not be used on shop\.example/,
    );
    assert.match(
      decideAction(typing, context({ credentialMode: 'none' })).reason,
      /credential_mode is none/,
    );
    assert.match(
      decideAction({ type: 'type', text: '{{secret:other}}' }, context()).reason,
      /secret other is not available/,
    );
  });

  it('applies configurable action rules, first match wins', () => {
    assert.deepEqual(
      decideAction(
        { type: 'click', x: 1, y: 1 },
        context({ currentUrl: 'https://pay.shop.example/' }),
      ),
      {
        decision: 'needs_approval',
        reason: 'payments need a supervisor',
        kind: 'host_rule',
      },
    );
    assert.equal(
      decideAction({ type: 'type', text: 'card 4111111111111111' }, context()).decision,
      'deny',
    );
    assert.equal(decideAction({ type: 'type', text: 'hello' }, context()).decision, 'allow');
    assert.equal(decideCallUser(acme, 'which one?').decision, 'needs_approval');
    assert.equal(decideCallUser(open, null).decision, 'allow');
  });

  it('applies host rules to every frame the target is in, not only the top page', () => {
    const click = { type: 'click' as const, x: 1, y: 1 };
    const inPayFrame = landed(['https://shop.example/cart', 'https://pay.shop.example/widget']);
    assert.equal(
      decideAction(click, context({ currentUrl: 'https://shop.example/cart' })).decision,
      'allow',
    );
    const decided = decideAction(
      click,
      context({ currentUrl: 'https://shop.example/cart', target: inPayFrame }),
    );
    assert.deepEqual([decided.decision, decided.kind], ['needs_approval', 'host_rule']);
  });

  it('takes a form post or a link to another origin as a navigation', () => {
    const click = { type: 'click' as const, x: 1, y: 1 };
    const post = landed(['https://shop.example/cart'], 'other', {
      kind: 'form',
      url: 'https://pay.shop.example/charge',
      method: 'POST',
      new_window: false,
    });
    assert.equal(decideAction(click, context({ target: post })).decision, 'needs_approval');
    const away = landed(['https://shop.example/'], 'other', {
      kind: 'link',
      url: 'https://evil.example/',
      method: 'GET',
      new_window: false,
    });
    const decided = decideAction(click, context({ target: away }));
    assert.deepEqual([decided.decision, decided.kind], ['needs_approval', 'navigation']);
    // Hovering the same link goes nowhere; Enter in a field of that form submits it.
    assert.equal(
      decideAction({ type: 'right_single', x: 1, y: 1 }, context({ target: away })).decision,
      'allow',
    );
    assert.equal(
      decideAction({ type: 'press', key: 'Enter' }, context({ target: post })).decision,
      'needs_approval',
    );
    assert.equal(
      decideAction({ type: 'press', key: 'a' }, context({ target: post })).decision,
      'allow',
    );
  });

  it('types a secret only into the field it is for, in a frame of its hosts', () => {
    const typing = { type: 'type' as const, text: '{{secret:bank_password}}' };
    const plain = decideAction(
      typing,
      context({ target: landed(['https://bank.example/'], 'text') }),
    );
    assert.deepEqual([plain.decision, plain.kind], ['deny', 'credential_field']);
    const foreign = decideAction(
      typing,
      context({ target: landed(['https://bank.example/', 'https://evil.example/f'], 'password') }),
    );
    assert.deepEqual([foreign.decision, foreign.kind], ['deny', 'credential']);
    const unknown = decideAction(typing, context({ target: null }));
    assert.equal(unknown.decision, 'deny');
    const otp = parsePolicy(
      `tenant: acme
domains: { allow: [bank.example] }
max_steps: 5
credentials:
  modes: [supervisor_approved]
  secrets: [{ name: code, domains: [bank.example], fields: { autocomplete: [one-time-code] } }]
`,
      'acme.yaml',
    );
    const code = { type: 'type' as const, text: '{{secret:code}}' };
    const at = (field: FieldKind, autocomplete: string | null) =>
      decideAction(
        code,
        context({
          policy: otp,
          target: landed(['https://bank.example/'], field, null, autocomplete),
        }),
      ).decision;
    assert.equal(at('text', 'one-time-code'), 'needs_approval');
    assert.equal(at('password', null), 'deny');
  });
});

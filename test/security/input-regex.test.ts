// Issue 12, found item 2: a caller's url_matches regex froze the whole controlplane (ReDoS), and
// invalid patterns were accepted with 202 and failed the task later. Patterns are now compiled at
// admission with a linear-time engine (RE2): invalid or unsupported ones are a 400 naming them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkCheap, probeReads } from '../../controlplane/src/browser/wait/conditions.js';
import { waitInputSchema } from '../../controlplane/src/browser/wait/wait-service.js';
import { decideAction } from '../../controlplane/src/governance/policy/decide-action.js';
import { parsePolicy } from '../../controlplane/src/governance/policy/load-policies.js';
import { replayTaskApi } from './support/replay-task-api.js';

const { app } = await replayTaskApi(["Action: finished(content='done')"]);
const submit = (urlMatches: string) =>
  app.request('/v1/tasks', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ instruction: 'x', success_criteria: { url_matches: urlMatches } }),
  });

/** Milliseconds one url_matches check takes against a page at `url`. */
async function timeCheck(pattern: string, url: string): Promise<{ ms: number; kind: string }> {
  const probe = { state: async () => ({ url, title: '', loading: false }) };
  const started = performance.now();
  const result = await checkCheap({ type: 'url_matches', pattern }, probeReads(probe));
  return { ms: performance.now() - started, kind: result.kind };
}

describe('caller-supplied regular expressions', () => {
  it('matches /(a+)+$/ against a hostile URL in linear time (the backtracking engine froze 28 s)', async () => {
    // 28 a's and a mismatch: ~2^28 backtracking steps (seconds) in V8's engine.
    const hostile = `https://shop.test/${'a'.repeat(28)}!`;
    const short = await timeCheck('/(a+)+$/', hostile);
    assert.equal(short.kind, 'unmet');
    // The bound sits far from both sides: linear matching takes milliseconds (306 ms once, the
    // first call loading the engine on a loaded CI host), backtracking ≈ 28 s.
    assert.ok(short.ms < 2000, `url_matches took ${short.ms.toFixed(0)} ms`);
    const long = await timeCheck('/(a+)+$/', `https://shop.test/${'a'.repeat(8000)}!`);
    assert.ok(long.ms < 2000, `url_matches on 8 kB took ${long.ms.toFixed(0)} ms`);
    assert.equal((await timeCheck('/orders\\/\\d+$/', 'https://x.test/orders/42')).kind, 'held');
    assert.equal((await timeCheck('https://x.test/*', 'https://x.test/a/b')).kind, 'held');
  });

  it('refuses an invalid url_matches pattern at admission with 400 naming it', async () => {
    for (const pattern of ['/(/', '/(a)\\1/', '/a(?=b)/', '/x/q']) {
      const response = await submit(pattern);
      assert.equal(response.status, 400, pattern);
      const body = (await response.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'BAD_REQUEST');
      assert.match(body.error.message, /success_criteria\.url_matches/);
      assert.ok(body.error.message.includes(pattern), body.error.message);
    }
    assert.equal((await submit('/(a+)+$/')).status, 202);
    assert.equal((await submit('https://shop.test/orders/*')).status, 202);
  });

  it('refuses an invalid pattern in a /v1/waits condition', () => {
    const parsed = waitInputSchema.safeParse({
      conditions: [{ type: 'url_matches', pattern: '/(/' }],
    });
    assert.equal(parsed.success, false);
  });

  it('evaluates a policy text rule in linear time and refuses one RE2 cannot run', () => {
    const policy = parsePolicy(
      `tenant: acme
domains: { allow: ["*"] }
max_steps: 10
approvals:
  actions:
    - { action: type, text: "(a+)+$", decision: deny, reason: no a runs }
`,
      'acme.yaml',
    );
    const started = performance.now();
    const decision = decideAction(
      { type: 'type', text: `${'a'.repeat(30)}!` },
      { policy, taskDomains: undefined, currentUrl: null, credentialMode: 'none' },
    );
    const ms = performance.now() - started;
    assert.equal(decision.decision, 'allow');
    assert.ok(ms < 250, `policy text rule took ${ms.toFixed(0)} ms`);
    assert.throws(
      () =>
        parsePolicy(
          'tenant: acme\ndomains: { allow: ["*"] }\nmax_steps: 10\napprovals:\n  actions:\n    - { action: type, text: "(a)\\\\1", decision: deny, reason: r }\n',
          'acme.yaml',
        ),
      /must be a valid regular expression/,
    );
  });
});

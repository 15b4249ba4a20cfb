import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createPolicyFixture } from './policy-fixture.js';

const finish = "Action: finished(content='done')";

describe('tenant policy in front of tasks', () => {
  it('answers 400 POLICY_DENIED when task domains exceed the tenant policy, and audits it', async (t) => {
    const fixture = await createPolicyFixture({ outputs: [finish] });
    t.after(fixture.close);
    const response = await fixture.startTask({
      instruction: 'x',
      domains: ['shop.example', 'evil.example'],
    });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'POLICY_DENIED');
    assert.match(body.error.message, /domains evil\.example are outside tenant acme's policy/);
    const decided = (await fixture.audit.list({ limit: 50 })).filter(
      (row) => row.type === 'policy-decided',
    );
    assert.equal(decided.at(-1)?.actor, 'tenant:acme/tester');
    assert.equal(decided.at(-1)?.data.decision, 'deny');
    const other = await fixture.startTask(
      { instruction: 'x', domains: ['evil.example'] },
      'globex',
    );
    assert.equal(other.status, 202, 'another tenant falls back to the open default policy');
  });

  it('applies the same policy to MCP tool calls (the caller comes from the bearer token)', async (t) => {
    const fixture = await createPolicyFixture({ outputs: [finish] });
    t.after(fixture.close);
    const client = new Client({ name: 't', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL('http://controlplane.test/mcp'), {
      fetch: async (url, init) => fixture.app.request(String(url), init as RequestInit),
      requestInit: { headers: { authorization: await fixture.bearer() } },
    });
    await client.connect(transport);
    t.after(() => client.close());
    const result = await client.callTool({
      name: 'browser_run_task',
      arguments: { instruction: 'x', domains: ['evil.example'] },
    });
    assert.equal(result.isError, true);
    assert.match(JSON.stringify(result.content), /outside tenant acme's policy/);
  });

  it('refuses an action a rule denies and tells the model why, then carries on', async (t) => {
    const fixture = await createPolicyFixture({
      outputs: ["Action: type(content='4111111111111111')", finish],
    });
    t.after(fixture.close);
    const response = await fixture.startTask({
      instruction: 'pay',
      start_url: 'https://shop.example/',
    });
    const { trace_id: id } = (await response.json()) as { trace_id: string };
    const task = await fixture.waitFor(id);
    assert.equal(task?.status, 'finished');
    assert.deepEqual(task?.maxSteps, 8, 'max_steps defaults to min(config, policy)');
    const [first] = await fixture.repository.listSteps(id);
    assert.equal(first?.outcome, 'refused');
    assert.equal(first?.outcomeMessage, 'Refused by policy: no card numbers.');
    assert.ok(!fixture.fake.executed.some((action) => action.type === 'type'));
    const rows = await fixture.audit.list({ limit: 100, taskId: id });
    const decision = rows.find(
      (row) => row.type === 'policy-decided' && row.data.subject === 'action',
    );
    assert.deepEqual(decision?.data.action, {
      chars: 16,
      sha256: createHash('sha256').update('4111111111111111').digest('hex').slice(0, 16),
      type: 'type',
    });
    assert.equal(decision?.data.kind, 'action_rule');
    const refused = rows.find((row) => row.type === 'step-refused');
    assert.equal(refused?.data.kind, 'action_rule');
    assert.ok(
      !JSON.stringify(rows).includes('4111111111111111'),
      'typed text stays out of policy rows',
    );
  });

  it('refuses what needs approval when no approver is configured', async (t) => {
    const fixture = await createPolicyFixture({
      outputs: ["Action: navigate(url='https://elsewhere.example/')", finish],
    });
    t.after(fixture.close);
    const response = await fixture.startTask({
      instruction: 'go',
      start_url: 'https://shop.example/',
    });
    const { trace_id: id } = (await response.json()) as { trace_id: string };
    await fixture.waitFor(id);
    const [first] = await fixture.repository.listSteps(id);
    assert.equal(first?.outcome, 'refused');
    assert.match(
      first?.outcomeMessage ?? '',
      /needs supervisor approval, and no approver is configured/,
    );
  });
});

describe('call_user under a policy that asks a supervisor', () => {
  const askingPolicy = (answer: boolean) => ({
    async request() {
      return answer
        ? { approved: true as const, approvalId: 'a1', by: 'api:ops' }
        : { approved: false as const, approvalId: 'a1', by: 'api:ops', why: 'denied' as const };
    },
  });

  for (const approved of [true, false]) {
    it(`${approved ? 'continues after a supervisor handled it' : 'ends with call_user when the supervisor declines'}`, async (t) => {
      const fixture = await createPolicyFixture({
        outputs: ["Action: call_user(content='solve the captcha please')", finish],
        approver: askingPolicy(approved),
        callUser: 'needs_approval',
      });
      t.after(fixture.close);
      const response = await fixture.startTask({
        instruction: 'x',
        start_url: 'https://shop.example/',
      });
      const { trace_id: id } = (await response.json()) as { trace_id: string };
      const task = await fixture.waitFor(id);
      assert.equal(task?.status, approved ? 'finished' : 'call_user');
      const decided = (await fixture.audit.list({ limit: 50, taskId: id })).find(
        (row) => row.data.subject === 'call_user',
      );
      assert.equal(decided?.data.decision, 'needs_approval');
    });
  }
});

// Admission decides before anything starts, and every run carries its gate: a denied or invalid
// task never leases a browser, and a browser that is there at once still meets the policy gate on
// step 1 (the gate used to be looked up in a map filled only after start() returned).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createReplayModel } from '../../controlplane/src/agent/model/replay-model.js';
import type { BrowserOperator } from '../../controlplane/src/browser/operator/browser-operator.js';
import type {
  BrowserLease,
  BrowserProvider,
} from '../../controlplane/src/browser/provider/browser-provider.js';
import {
  loopbackPrincipal,
  type Principal,
} from '../../controlplane/src/governance/auth/scopes.js';
import { admitTask } from '../../controlplane/src/governance/policy/admit-task.js';
import { parsePolicy } from '../../controlplane/src/governance/policy/load-policies.js';
import { runTaskCommand } from '../../controlplane/src/ingress/cli/run-command.js';
import { isDenied } from '../../controlplane/src/tasks/task-plan.js';
import { createTaskService } from '../../controlplane/src/tasks/task-service.js';
import {
  acmePolicy,
  createPolicyFixture,
} from '../controlplane/governance/policy/policy-fixture.js';
import { createFakeOperator } from '../support/fake-operator.js';
import { createTestTaskDeps } from '../support/test-task-deps.js';

const finish = "Action: finished(content='done')";
const typeCard = "Action: type(content='4111111111111111')";
const acme: Principal = { tenant: 'acme', subject: 'alice', scopes: ['tasks:run'], via: 'token' };

/** A provider that hands out `operator` with no wait at all, and counts what it was asked for. */
function countingInstantProvider(operator: BrowserOperator) {
  const counts = { acquires: 0 };
  const lease: BrowserLease = { operator, id: 'instant', service: null, release: async () => {} };
  const provider: BrowserProvider = {
    concurrency: 4,
    acquire: () => {
      counts.acquires += 1;
      return Promise.resolve(lease);
    },
  };
  return { counts, provider: () => provider };
}

describe('admission is a pure plan, and no task runs ungated', () => {
  it('admitTask is pure: the same input gives the same plan, a denial or an invalid input', () => {
    const policy = parsePolicy(acmePolicy, 'acme.yaml');
    const input = { instruction: 'pay', start_url: 'https://shop.example/' };
    const plan = admitTask(input, acme, policy, { maxSteps: 20 });
    assert.deepEqual(admitTask(input, acme, policy, { maxSteps: 20 }), plan);
    assert.ok(!isDenied(plan));
    assert.equal(plan.tenant, 'acme');
    assert.equal(plan.actor, 'tenant:acme/alice');
    assert.equal(plan.input.max_steps, 8, 'capped by the policy');
    assert.deepEqual(plan.input.domains, ['shop.example', '*.shop.example']);
    assert.equal(plan.rules.kind, 'policy');
    const outside = admitTask({ instruction: 'x', domains: ['evil.example'] }, acme, policy, {
      maxSteps: 20,
    });
    assert.ok(isDenied(outside) && outside.code === 'POLICY_DENIED');
    const invalid = admitTask({ instruction: '   ' }, acme, policy, { maxSteps: 20 });
    assert.ok(isDenied(invalid) && invalid.code === 'INVALID_INPUT');
  });

  it('a task denied by policy (REST and MCP) or with invalid input never touches a browser', async (t) => {
    const counting = countingInstantProvider;
    let counts = { acquires: 0 };
    const fixture = await createPolicyFixture({
      outputs: [finish],
      provider: (operator) => {
        const made = counting(operator);
        counts = made.counts;
        return made.provider();
      },
    });
    t.after(fixture.close);
    const denied = await fixture.startTask({ instruction: 'x', domains: ['evil.example'] });
    assert.equal(denied.status, 400);
    const client = new Client({ name: 't', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL('http://controlplane.test/mcp'), {
      fetch: async (url, init) => fixture.app.request(String(url), init as RequestInit),
      requestInit: { headers: { authorization: await fixture.bearer() } },
    });
    await client.connect(transport);
    t.after(() => client.close());
    const refused = await client.callTool({
      name: 'browser_run_task',
      arguments: { instruction: 'x', domains: ['evil.example'] },
    });
    assert.equal(refused.isError, true);
    await assert.rejects(fixture.tasks.admit({ instruction: '' }, acme), { code: 'INVALID_INPUT' });
    await assert.rejects(fixture.tasks.admit({ instruction: 'x', max_steps: 99 }, acme), {
      code: 'POLICY_DENIED',
    });
    assert.equal(counts.acquires, 0, 'no browser was leased for a task that was not admitted');
    assert.equal((await fixture.repository.listTasks({ limit: 10, offset: 0 })).total, 0);
  });

  it('a service without a policy still refuses invalid input before any browser', async (t) => {
    const fake = createFakeOperator();
    const { deps, close } = createTestTaskDeps({
      model: createReplayModel([finish]),
      operator: fake.operator,
    });
    const counting = countingInstantProvider(fake.operator);
    const tasks = createTaskService(deps, undefined, counting.provider());
    t.after(async () => {
      await tasks.close();
      close();
    });
    await assert.rejects(tasks.admit({ instruction: 'x', start_url: 'file:///etc/passwd' }, acme), {
      code: 'INVALID_INPUT',
    });
    await assert.rejects(tasks.admit({ instruction: 'x', max_steps: 0 }, acme), {
      code: 'INVALID_INPUT',
    });
    assert.equal(counting.counts.acquires, 0);
    const plan = await tasks.admit({ instruction: 'x' }, acme);
    assert.equal(plan.rules.kind, 'allow-all');
    assert.equal((await (await tasks.start(plan)).done).status, 'finished');
    assert.equal(counting.counts.acquires, 1);
  });

  it('with a lease that is there at once, the policy gate refuses a denied action on step 1', async (t) => {
    let counts = { acquires: 0 };
    const fixture = await createPolicyFixture({
      outputs: [typeCard, finish],
      provider: (operator) => {
        const made = countingInstantProvider(operator);
        counts = made.counts;
        return made.provider();
      },
    });
    t.after(fixture.close);
    const plan = await fixture.tasks.admit(
      { instruction: 'pay', start_url: 'https://shop.example/' },
      acme,
    );
    const { taskId, done } = await fixture.tasks.start(plan);
    const result = await done;
    assert.equal(counts.acquires, 1);
    assert.equal(result.status, 'finished');
    const [first] = await fixture.repository.listSteps(taskId);
    assert.equal(first?.index, 1);
    assert.equal(first?.outcome, 'refused');
    assert.equal(first?.outcomeMessage, 'Refused by policy: no card numbers.');
    assert.ok(!fixture.fake.executed.some((action) => action.type === 'type'));
  });

  it('the caller reaches the task row from REST, MCP over HTTP and the CLI', async (t) => {
    const fixture = await createPolicyFixture({ outputs: [finish, finish, finish] });
    t.after(fixture.close);
    const rest = await fixture.startTask({ instruction: 'rest', domains: ['shop.example'] });
    const { trace_id: restId } = (await rest.json()) as { trace_id: string };
    const restRow = await fixture.waitFor(restId);
    assert.equal(restRow?.tenant, 'acme');
    assert.equal(restRow?.actor, 'tenant:acme/tester');

    const client = new Client({ name: 't', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL('http://controlplane.test/mcp'), {
      fetch: async (url, init) => fixture.app.request(String(url), init as RequestInit),
      requestInit: { headers: { authorization: await fixture.bearer('globex') } },
    });
    await client.connect(transport);
    t.after(() => client.close());
    const called = await client.callTool({
      name: 'browser_run_task',
      arguments: { instruction: 'mcp' },
    });
    const mcpId = (called.structuredContent as { trace_id: string }).trace_id;
    const mcpRow = await fixture.repository.getTask(mcpId);
    assert.equal(mcpRow?.tenant, 'globex');
    assert.equal(mcpRow?.actor, 'tenant:globex/tester');

    const cli = await runTaskCommand({ instruction: 'cli' }, fixture.tasks, { tenant: 'acme' });
    const cliRow = await fixture.repository.getTask(cli.trace_id);
    assert.equal(cliRow?.tenant, 'acme');
    assert.equal(cliRow?.actor, 'tenant:acme/cli');
    assert.notEqual(loopbackPrincipal.tenant, 'acme');
  });

  it('no controlplane module carries the caller in AsyncLocalStorage', () => {
    const root = join(import.meta.dirname, '../../controlplane/src');
    const offenders = (readdirSync(root, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts'))
      .filter((file) =>
        /async_hooks|AsyncLocalStorage/.test(readFileSync(join(root, file), 'utf8')),
      );
    assert.deepEqual(offenders, []);
  });
});

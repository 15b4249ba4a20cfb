import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { createReplayModel } from '../../../../controlplane/src/agent/model/replay-model.js';
import type { ModelPrices } from '../../../../controlplane/src/config-prices.js';
import { createAuditLog } from '../../../../controlplane/src/governance/audit/audit-log.js';
import {
  parsePolicy,
  policySetOf,
} from '../../../../controlplane/src/governance/policy/load-policies.js';
import { createPolicyAdmission } from '../../../../controlplane/src/governance/policy/task-admission.js';
import { createTaskGuards } from '../../../../controlplane/src/governance/policy/task-guards.js';
import { parseCommand } from '../../../../controlplane/src/ingress/cli/args.js';
import { createProgressPrinter } from '../../../../controlplane/src/ingress/cli/cli-output.js';
import {
  cliPrincipal,
  runTaskCommand,
} from '../../../../controlplane/src/ingress/cli/run-command.js';
import { createAuditRepository } from '../../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { createTaskService } from '../../../../controlplane/src/tasks/task-service.js';
import { describeUsage } from '../../../../controlplane/src/tasks/task-usage.js';
import { createFakeOperator } from '../../../support/fake-operator.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { createTestTaskDeps } from '../../../support/test-task-deps.js';
import { acmePolicy } from '../../governance/policy/policy-fixture.js';

const finish = "Action: finished(content='done')";

/** What `clawdie run` gets from the platform: task deps and the policed wrapper, over fakes. */
function createRunFixture(t: TestContext, outputs: string[], prices: ModelPrices = {}) {
  const fake = createFakeOperator();
  const { deps, repository, close } = createTestTaskDeps({
    model: createReplayModel(outputs),
    operator: fake.operator,
  });
  const database = openDatabase(':memory:');
  t.after(() => {
    close();
    database.close();
  });
  const audit = createAuditLog(createAuditRepository(database.db), deps.clock);
  const policies = policySetOf([
    parsePolicy('tenant: default\ndomains: { allow: ["*"] }\nmax_steps: 10\n', 'default.yaml'),
    parsePolicy(acmePolicy, 'acme.yaml'),
  ]);
  /** A fresh policed TaskService per run, as `Platform.createTasks` builds it. */
  const tasks = () =>
    createTaskService({
      ...deps,
      prices,
      audit,
      admission: createPolicyAdmission({ policies, audit, defaults: { maxSteps: 10 } }),
      guards: createTaskGuards({ audit, logger: silentLogger }),
    });
  return { fake, repository, audit, tasks };
}

describe('clawdie run goes through the tenant policy', () => {
  it('parses --tenant and refuses an empty one', () => {
    const command = parseCommand(['run', 'buy', 'milk', '--tenant', 'acme']);
    assert.equal(command.name, 'run');
    assert.equal(command.name === 'run' && command.tenant, 'acme');
    const plain = parseCommand(['run', 'buy milk']);
    assert.equal(plain.name === 'run' && plain.tenant, undefined);
    assert.throws(() => parseCommand(['run', 'x', '--tenant', '']), /--tenant/);
  });

  it('parses --domains, repeated or comma-separated, and refuses a bad pattern naming the flag', () => {
    const command = parseCommand([
      'run',
      'open it',
      '--start-url',
      'http://127.0.0.1:8700/',
      '--domains',
      '127.0.0.1:8700, shop.example',
      '--domains',
      '*.cdn.example',
    ]);
    assert.deepEqual(command.name === 'run' && command.input.domains, [
      '127.0.0.1:8700',
      'shop.example',
      '*.cdn.example',
    ]);
    const plain = parseCommand(['run', 'x']);
    assert.equal(plain.name === 'run' && plain.input.domains, undefined);
    assert.throws(() => parseCommand(['run', 'x', '--domains', 'http://x/']), /--domains/);
  });

  it('acts as the loopback principal by default and as a CLI caller of the given tenant', () => {
    assert.equal(cliPrincipal().tenant, 'default');
    assert.deepEqual(cliPrincipal('acme'), {
      tenant: 'acme',
      subject: 'cli',
      scopes: ['admin'],
      via: 'loopback',
    });
  });

  it("refuses admission when the tenant's policy denies the task, and audits the decision", async (t) => {
    const fixture = createRunFixture(t, [finish]);
    const input = { instruction: 'x', domains: ['shop.example', 'evil.example'] };
    await assert.rejects(runTaskCommand(input, fixture.tasks(), { tenant: 'acme' }), {
      code: 'POLICY_DENIED',
      message: /outside tenant acme's policy/,
    });
    const decided = (await fixture.audit.list({ limit: 10 })).filter(
      (row) => row.type === 'policy-decided',
    );
    assert.equal(decided.at(-1)?.actor, 'tenant:acme/cli');
    assert.equal(decided.at(-1)?.data.decision, 'deny');
    assert.equal((await fixture.repository.listTasks({ limit: 10, offset: 0 })).total, 0);
    const allowed = await runTaskCommand(input, fixture.tasks());
    assert.equal(allowed.status, 'finished', 'the default tenant allows every domain');
  });

  it("applies the tenant's action gate and records the task under the tenant", async (t) => {
    const fixture = createRunFixture(t, ["Action: type(content='4111111111111111')", finish]);
    const result = await runTaskCommand(
      { instruction: 'pay', start_url: 'https://shop.example/' },
      fixture.tasks(),
      { tenant: 'acme' },
    );
    assert.equal(result.status, 'finished');
    const task = await fixture.repository.getTask(result.trace_id);
    assert.equal(task?.tenant, 'acme');
    assert.equal(task?.actor, 'tenant:acme/cli');
    assert.equal(task?.maxSteps, 8, 'max_steps capped by the acme policy');
    const [first] = await fixture.repository.listSteps(result.trace_id);
    assert.equal(first?.outcome, 'refused');
    assert.ok(!fixture.fake.executed.some((action) => action.type === 'type'));
  });

  it('aborts the task when the signal fires (Ctrl-C)', async (t) => {
    const fixture = createRunFixture(t, Array(10).fill('Action: wait()'));
    const controller = new AbortController();
    controller.abort();
    const result = await runTaskCommand({ instruction: 'wait' }, fixture.tasks(), {
      signal: controller.signal,
    });
    assert.equal(result.status, 'aborted');
    assert.equal((await fixture.repository.getTask(result.trace_id))?.tenant, 'default');
  });
});

describe('clawdie run prints the statuses every other surface reports', () => {
  it('prints each status the run publishes, in the order SSE carries them', async (t) => {
    const fixture = createRunFixture(t, [finish]);
    const tasks = fixture.tasks();
    const lines: string[] = [];
    const result = await runTaskCommand({ instruction: 'x' }, tasks, {
      onEvent: createProgressPrinter(10, (line) => lines.push(line)),
    });
    assert.equal(result.status, 'finished');
    const printed = lines.filter((line) => line.startsWith('status: '));
    const streamed = tasks.events
      .since(result.trace_id, 0)
      .flatMap(({ event }) => (event.type === 'status' ? [`status: ${event.data.status}`] : []));
    assert.ok(printed.includes('status: running'), lines.join('\n'));
    // The model and its profile, as the trace and REST record them.
    assert.ok(lines.includes('model: replay (profile ui-tars-1.5)'), lines.join('\n'));
    const view = await fixture.repository.getTask(result.trace_id);
    assert.equal(view?.coordinateMode, 'ui-tars-1.5');
    // The CLI subscribes after the row is queued; from then on it prints what SSE carries.
    assert.deepEqual(printed, streamed.slice(streamed.length - printed.length));
  });

  it("ends with one line of the task's model usage and its cost", async (t) => {
    const prices = { replay: { input_per_million: 2, output_per_million: 8, currency: 'EUR' } };
    const fixture = createRunFixture(t, ['Action: wait()', finish], prices);
    const lines: string[] = [];
    const result = await runTaskCommand({ instruction: 'x' }, fixture.tasks(), {
      onEvent: createProgressPrinter(10, (line) => lines.push(line)),
    });
    const usage = result.usage;
    assert.ok(usage, 'the compact result carries the usage');
    const calls = (await fixture.repository.listSteps(result.trace_id)).map(
      (step) => step.modelUsage,
    );
    const prompt = calls.reduce((sum, call) => sum + (call?.promptTokens ?? 0), 0);
    const completion = calls.reduce((sum, call) => sum + (call?.completionTokens ?? 0), 0);
    assert.deepEqual(
      [usage.model_calls, usage.prompt_tokens, usage.completion_tokens, usage.estimated],
      [2, prompt, completion, true],
    );
    const amount = Math.round(prompt * 2 + completion * 8) / 1_000_000;
    assert.deepEqual(usage.cost, { amount, currency: 'EUR' });
    assert.equal(lines.at(-1), `usage: ${describeUsage(usage)}`);
    // Step 1 sends one screenshot, step 2 two (the image window).
    assert.match(
      lines.at(-1) ?? '',
      new RegExp(
        `^usage: 2 model calls · ${prompt} prompt \\+ ${completion} completion tokens \\(estimated\\) · 3 images, \\d+ KB · queue 0 ms · model \\d+ ms · cost ${amount} EUR$`,
      ),
    );
    assert.equal(lines.filter((line) => line.startsWith('usage: ')).length, 1);
  });

  it('names the approval an awaiting task waits for and why a person is needed', () => {
    const lines: string[] = [];
    const print = createProgressPrinter(10, (line) => lines.push(line));
    print({
      type: 'status-changed',
      status: 'awaiting_approval',
      approval: { id: 'ap-1', kind: 'action', reason: 'typing into a payment field', action: null },
    });
    print({ type: 'status-changed', status: 'needs_user', reason: 'login' });
    assert.deepEqual(lines, [
      'status: awaiting_approval (typing into a payment field; answer at /v1/approvals/ap-1)',
      'status: needs_user (login)',
    ]);
  });
});

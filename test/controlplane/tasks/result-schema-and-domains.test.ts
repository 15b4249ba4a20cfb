import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createReplayModel } from '../../../controlplane/src/agent/model/replay-model.js';
import {
  hostMatches,
  urlAllowed,
} from '../../../controlplane/src/governance/policy/domain-match.js';
import type { BrowserRunTaskInput } from '../../../controlplane/src/tasks/task-input.js';
import { createFakeOperator } from '../../support/fake-operator.js';
import { runTestTask } from '../../support/submit-task.js';
import { createTestTaskDeps } from '../../support/test-task-deps.js';

async function run(outputs: string[], input: BrowserRunTaskInput) {
  const fake = createFakeOperator();
  const { deps, repository, close } = createTestTaskDeps({
    model: createReplayModel(outputs),
    operator: fake.operator,
    loop: { maxSteps: 6 },
  });
  const result = await runTestTask(input, { ...deps, newId: () => 'task-1' });
  const steps = await repository.listSteps(result.trace_id);
  close();
  return { result, steps, executed: fake.executed };
}

const schema = {
  type: 'object',
  properties: { reference: { type: 'string', pattern: '^ORD-' } },
  required: ['reference'],
};

describe('result_schema', () => {
  it('returns the validated JSON as result_data', async () => {
    const { result } = await run([`Action: finished(content='{"reference": "ORD-1"}')`], {
      instruction: 'x',
      result_schema: schema,
    });
    assert.equal(result.status, 'finished');
    assert.deepEqual(result.result_data, { reference: 'ORD-1' });
  });

  it('gives the model one chance to fix a mismatch', async () => {
    const { result, steps } = await run(
      ["Action: finished(content='ORD-1')", `Action: finished(content='{"reference": "ORD-1"}')`],
      { instruction: 'x', result_schema: schema },
    );
    assert.equal(result.status, 'finished');
    assert.deepEqual(result.result_data, { reference: 'ORD-1' });
    assert.equal(steps[0]?.outcome, 'result_invalid');
    assert.match(steps[0]?.outcomeMessage ?? '', /not valid JSON/);
  });

  it('reports a second mismatch as RESULT_SCHEMA_MISMATCH, never a silent null', async () => {
    const { result } = await run(
      [
        `Action: finished(content='{"reference": 7}')`,
        `Action: finished(content='{"ref": "ORD-1"}')`,
      ],
      { instruction: 'x', result_schema: schema },
    );
    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'RESULT_SCHEMA_MISMATCH');
    assert.match(result.error?.message ?? '', /must have required property 'reference'/);
    assert.equal(result.summary, '{"ref": "ORD-1"}');
  });
});

describe('domains', () => {
  it('refuses a navigation outside the task domains and tells the model', async () => {
    const { result, steps, executed } = await run(
      [
        "Action: navigate(content='https://evil.example.net/')",
        "Action: navigate(content='https://shop.example.org/a')",
        'Action: finished()',
      ],
      { instruction: 'x', domains: ['*.example.org'] },
    );
    assert.equal(result.status, 'finished');
    assert.equal(steps[0]?.outcome, 'refused');
    assert.deepEqual(executed, [{ type: 'navigate', url: 'https://shop.example.org/a' }]);
  });

  it('matches exact hosts and subdomain wildcards', () => {
    assert.equal(hostMatches('example.org', 'example.org'), true);
    assert.equal(hostMatches('a.example.org', 'example.org'), false);
    assert.equal(hostMatches('a.example.org', '*.example.org'), true);
    assert.equal(hostMatches('example.org', '*.example.org'), false);
    assert.equal(hostMatches('badexample.org', '*.example.org'), false);
    assert.equal(urlAllowed('javascript:alert(1)', ['example.org']), false);
    assert.equal(urlAllowed('example.org/path', ['example.org']), true);
  });
});

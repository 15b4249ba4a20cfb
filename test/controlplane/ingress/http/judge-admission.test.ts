// Issue 22 (3): without a vision judge, a task or wait that asks for a visual condition is refused
// when it is admitted (400 JUDGE_UNAVAILABLE naming the settings), on REST and MCP alike — never
// accepted and failed later. With a judge (here a scripted one, injected through the adapters of
// the one composition root) the same requests are accepted and judged.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { VisualJudge } from '../../../../controlplane/src/browser/wait/wait-types.js';
import { createTestControlplane, type TestControlplane } from '../../../support/controlplane.js';
import { createPerTaskScriptModel } from '../../../support/per-task-script-model.js';

const finish = ["Action: finished(content='done')"];
const visualTask = {
  instruction: 'Confirm the order',
  success_criteria: { visual: 'a green tick is shown' },
};
const visualLogin = {
  instruction: 'Read the account note',
  logged_in_check: { visual: 'the account avatar is shown' },
};
const visualWait = {
  conditions: [{ type: 'visual', description: 'a green tick is shown' }],
  timeout_ms: 2000,
};

async function post(base: string, path: string, body: unknown) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function callMcp(base: string, input: unknown) {
  const client = new Client({ name: 'judge-admission', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  try {
    return await client.callTool({ name: 'browser_run_task', arguments: input as never });
  } finally {
    await client.close();
  }
}

describe('visual conditions without a vision judge', () => {
  let controlplane: TestControlplane;
  let base = '';
  before(async () => {
    controlplane = await createTestControlplane({ model: createPerTaskScriptModel(finish) });
    base = await controlplane.serve();
  });
  after(() => controlplane?.close());

  it('refuses success_criteria.visual and a visual logged_in_check on REST with 400', async () => {
    for (const [input, field] of [
      [visualTask, 'success_criteria.visual'],
      [visualLogin, 'logged_in_check.visual'],
    ] as const) {
      const { status, body } = await post(base, '/v1/tasks', input);
      assert.equal(status, 400, JSON.stringify(body));
      assert.equal(body.error.code, 'JUDGE_UNAVAILABLE');
      assert.match(
        body.error.message,
        new RegExp(`^${field.replace('.', '\\.')} needs a vision judge`),
      );
      assert.match(body.error.message, /CLAWDIE_JUDGE_URL and CLAWDIE_JUDGE_NAME/);
      assert.match(body.error.message, /CLAWDIE_JUDGE_USE_MODEL=true/);
    }
    assert.equal(
      (await controlplane.repository.listTasks({ limit: 10, offset: 0 })).total,
      0,
      'nothing started',
    );
    const refusals = (await controlplane.audit.list({ limit: 20 })).filter(
      (row) => row.type === 'policy-decided' && row.data.decision === 'deny',
    );
    assert.equal(refusals.length, 2, 'both refusals are audited like any admission');
  });

  it('refuses them on MCP before any task starts', async () => {
    const result = await callMcp(base, visualTask);
    assert.equal(result.isError, true);
    const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
    assert.match(text, /^JUDGE_UNAVAILABLE: success_criteria\.visual needs a vision judge/);
    assert.equal((await controlplane.repository.listTasks({ limit: 10, offset: 0 })).total, 0);
  });

  it('refuses a visual wait condition on POST /v1/waits with 400', async () => {
    const { status, body } = await post(base, '/v1/waits', { ...visualWait, block: true });
    assert.equal(status, 400, JSON.stringify(body));
    assert.equal(body.error.code, 'JUDGE_UNAVAILABLE');
    assert.match(body.error.message, /^a visual wait condition needs a vision judge/);
    // Other conditions still run.
    const stable = await post(base, '/v1/waits', {
      conditions: [{ type: 'url_matches', pattern: '*' }],
      block: true,
    });
    assert.equal(stable.status, 200, JSON.stringify(stable.body));
  });
});

describe('visual conditions with an injected judge', () => {
  let controlplane: TestControlplane;
  let base = '';
  const asked: string[] = [];
  before(async () => {
    const judge: VisualJudge = {
      async judge(request) {
        asked.push(request.condition);
        return { decision: 'resolved', reason: 'scripted' };
      },
    };
    controlplane = await createTestControlplane({
      model: createPerTaskScriptModel(finish),
      adapters: { judge: () => judge },
    });
    base = await controlplane.serve();
  });
  after(() => controlplane?.close());

  it('admits the same requests and judges them', async () => {
    const started = await post(base, '/v1/tasks', visualTask);
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const waited = await post(base, '/v1/waits', { ...visualWait, block: true });
    assert.equal(waited.status, 200, JSON.stringify(waited.body));
    assert.equal(waited.body.status, 'resolved');
    const result = await callMcp(base, visualLogin);
    assert.equal((result.structuredContent as { status: string }).status, 'finished');
    assert.ok(asked.includes('a green tick is shown'));
    assert.ok(asked.includes('the account avatar is shown'));
  });
});

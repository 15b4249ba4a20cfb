// needs_user is a state of the task run (issue 21): the takeover port reports to the run, the run
// writes the row and publishes the status — the same on REST, SSE and MCP progress — and a pause
// or an abort asked meanwhile is honoured. The whole controlplane (composition root) with a
// tenant policy that hands call_user over to a person.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { LoopEvent } from '../../../controlplane/src/agent/loop/loop-types.js';
import { createReplayModel } from '../../../controlplane/src/agent/model/replay-model.js';
import { createProgressTracker } from '../../../controlplane/src/ingress/mcp/progress.js';
import { createTestControlplane } from '../../support/controlplane.js';
import { submit } from '../../support/submit-task.js';

const policy = `tenant: default
domains: { allow: ["*"] }
max_steps: 10
handoff: { on: [call_user], timeout_s: 60, on_timeout: end_call_user }
`;

async function setup(t: { after(fn: () => unknown): void }) {
  const policyDir = mkdtempSync(join(tmpdir(), 'clawdie-needs-user-'));
  t.after(() => rmSync(policyDir, { recursive: true, force: true }));
  writeFileSync(join(policyDir, 'default.yaml'), policy);
  const controlplane = await createTestControlplane({
    model: createReplayModel([
      "Action: call_user(content='the code?')",
      "Action: finished(content='done')",
    ]),
    env: { CLAWDIE_POLICY_DIR: policyDir },
  });
  t.after(() => controlplane.close());
  const events: LoopEvent[] = [];
  const task = await submit(controlplane.tasks, { instruction: 'asks a person' }, (event) =>
    events.push(event),
  );
  const { app, tasks, takeover } = controlplane;
  const rest = async () =>
    (await (await app.request(`/v1/tasks/${task.taskId}`)).json()) as {
      task: { status: string; step_count: number };
      needs_user: { reason: string } | null;
    };
  /** The SSE `status` events so far (the stream of a running task stays open: read what came). */
  const sseStatuses = async () => {
    const response = await app.request(`/v1/tasks/${task.taskId}/events`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    const wanted = tasks.events.since(task.taskId, 0).length;
    while ((text.match(/\n\n/g) ?? []).length < wanted) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    return text
      .split('\n\n')
      .filter((block) => block.startsWith('event: status'))
      .map((block) => JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null'));
  };
  const until = async (what: string, check: () => Promise<boolean> | boolean) => {
    for (let i = 0; i < 500; i++) {
      if (await check()) return;
      await delay(10);
    }
    assert.fail(`${what} did not happen`);
  };
  await until('needs_user', async () => (await rest()).task.status === 'needs_user');
  const handBack = () =>
    takeover.tasks.registry.get(task.taskId)?.handBack({ note: 'typed it', by: 'test' });
  return { task, tasks, app, takeover, events, rest, sseStatuses, until, handBack };
}

describe('a task that needs a person', () => {
  it('is needs_user with its reason on REST, SSE and MCP progress alike, then running on hand-back', async (t) => {
    const { task, events, rest, sseStatuses, handBack } = await setup(t);
    const body = await rest();
    assert.deepEqual(body.needs_user, { reason: 'call_user' });
    assert.deepEqual((await sseStatuses()).at(-1), {
      trace_id: task.taskId,
      status: 'needs_user',
      reason: 'call_user',
    });
    const track = createProgressTracker(10);
    const progress = events.flatMap((event) => track(event) ?? []);
    assert.equal(
      progress.at(-1)?.message,
      'needs_user: a person is asked to take over the browser (call user)',
    );
    const changed = events.filter((event) => event.type === 'status-changed');
    assert.deepEqual(
      changed.map((event) => event.status),
      ['queued', 'running', 'needs_user'],
      'the run publishes each state once',
    );

    handBack();
    assert.equal((await task.done).status, 'finished');
    assert.deepEqual(
      (await sseStatuses()).map((status) => status.status),
      ['queued', 'running', 'needs_user', 'running'],
    );
    assert.equal((await rest()).needs_user, null);
  });

  it('ends at once when aborted while it waits for the person', async (t) => {
    const { task, app, takeover, rest, sseStatuses } = await setup(t);
    const started = Date.now();
    const response = await app.request(`/v1/tasks/${task.taskId}/abort`, { method: 'POST' });
    assert.equal(response.status, 202);
    const result = await task.done;
    assert.ok(Date.now() - started < 2000, 'the abort did not wait for the takeover timeout');
    assert.equal(result.status, 'aborted');
    assert.equal(result.step_count, 1);
    const after = await rest();
    assert.equal(after.task.status, 'aborted');
    assert.equal(after.task.step_count, 1);
    assert.equal(after.needs_user, null);
    assert.equal(takeover.tasks.registry.get(task.taskId), undefined, 'the takeover is closed');
    assert.deepEqual(
      (await sseStatuses()).map((status) => status.status),
      ['queued', 'running', 'needs_user'],
      'no running after the abort: the result follows',
    );
  });

  it('holds a pause asked while it waits for the person once handed back (paused on REST and SSE)', async (t) => {
    const { task, tasks, rest, sseStatuses, until, handBack } = await setup(t);
    assert.equal(await tasks.pause?.(task.taskId), true);
    assert.equal((await rest()).task.status, 'needs_user', 'the person still has the browser');
    handBack();
    await until('paused', async () => (await rest()).task.status === 'paused');
    await until('the paused status on SSE', async () =>
      (await sseStatuses()).some((status) => status.status === 'paused'),
    );
    assert.deepEqual(
      (await sseStatuses()).map((status) => status.status),
      ['queued', 'running', 'needs_user', 'paused'],
    );
    await delay(50);
    assert.equal((await rest()).task.step_count, 1, 'no step while paused');
    assert.equal(await tasks.resume?.(task.taskId), true);
    assert.equal((await task.done).status, 'finished');
  });
});

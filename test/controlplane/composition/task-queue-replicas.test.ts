// Tasks dispatched through the shared queue of two controlplanes on one PostgreSQL database: a task
// submitted to a busy replica runs on the idle one and its submitter still gets the result; a task
// whose submitter closed before it started is run by the other replica; many tasks fetched by both
// at once each run exactly once (duplicate jobs included); a queued task is aborted through either
// replica and never runs; pause of one is refused.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { VisionModel } from '../../../controlplane/src/agent/model/chat-types.js';
import { loopbackPrincipal } from '../../../controlplane/src/governance/auth/scopes.js';
import { openPgDatabase } from '../../../controlplane/src/platform/store/pg/pg-database.js';
import { openPgTaskQueue } from '../../../controlplane/src/platform/store/pg/pg-task-queue.js';
import { commandTask } from '../../../controlplane/src/tasks/task-commands.js';
import { requires } from '../../support/capabilities.js';
import type { TestControlplane } from '../../support/controlplane.js';
import {
  dataDirWithKeyOf,
  freshDatabase,
  startReplica,
} from '../../support/postgres/replica-fixture.js';
import { silentLogger } from '../../support/silent-logger.js';
import { submit } from '../../support/submit-task.js';

/**
 * Finishes every task in one step, except that a task whose instruction starts with `qhold` waits
 * for `release(instruction)` (or its abort) first. Counts each task's runs (first model calls).
 */
function heldModel() {
  const released = new Set<string>();
  const waiters = new Set<() => void>();
  const runs = new Map<string, number>();
  const model: VisionModel = {
    name: 'held',
    isReplay: true,
    async complete(request, signal) {
      const instruction =
        JSON.stringify(request.messages).match(/q(hold|task)-[a-z0-9-]+/)?.[0] ?? '?';
      if (!request.messages.some((message) => message.role === 'assistant'))
        runs.set(instruction, (runs.get(instruction) ?? 0) + 1);
      while (instruction.startsWith('qhold') && !released.has(instruction)) {
        signal?.throwIfAborted();
        await new Promise<void>((resolve, reject) => {
          waiters.add(resolve);
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      }
      return { text: 'Action: finished(content="done")', requestBytes: 1, usage: null };
    },
  };
  return {
    model,
    runs: (instruction: string) => runs.get(instruction) ?? 0,
    release(instruction: string) {
      released.add(instruction);
      for (const wake of waiters) wake();
      waiters.clear();
    },
  };
}

const until = async (what: string, check: () => boolean | Promise<boolean>, ms = 15_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `${what}: not reached in ${ms} ms`);
    await sleep(20);
  }
};

async function pair(t: TestContext, held: ReturnType<typeof heldModel>) {
  const url = await freshDatabase();
  const a = await startReplica(t, url, dataDirWithKeyOf(null, t), { model: held.model });
  return {
    url,
    a,
    startB: () => startReplica(t, url, dataDirWithKeyOf(a.dataDir, t), { model: held.model }),
  };
}

const ownerOf = (replica: TestControlplane) => replica.replicas?.self;
const row = async (replica: TestControlplane, id: string) => {
  const task = await replica.repository.getTask(id);
  assert.ok(task, id);
  return task;
};

/** `replica` runs `instruction` (held), submitted to it while it is the only one fetching. */
async function busy(replica: TestControlplane, instruction: string) {
  const started = await submit(replica.tasks, { instruction });
  await until(
    `${instruction} running`,
    async () => (await row(replica, started.taskId)).status === 'running',
  );
  assert.equal((await row(replica, started.taskId)).ownerInstance, ownerOf(replica));
  return started;
}

describe('tasks dispatched through the shared PostgreSQL queue', requires('postgres'), () => {
  it('runs a task submitted to a replica without a free browser on the idle one; the submitter gets the result', async (t) => {
    const held = heldModel();
    const { a, startB } = await pair(t, held);
    const hold = await busy(a, 'qhold-a');
    const b = await startB();
    const events: string[] = [];
    const sent = performance.now();
    const moved = await submit(a.tasks, { instruction: 'qtask-moved' }, (event) =>
      events.push(event.type),
    );
    const result = await moved.done;
    t.diagnostic(`submitted to busy A, ended on B in ${(performance.now() - sent).toFixed(0)} ms`);
    assert.equal(result.status, 'finished');
    assert.equal(result.trace_id, moved.taskId);
    assert.equal((await row(a, moved.taskId)).ownerInstance, ownerOf(b));
    assert.equal((await row(a, hold.taskId)).status, 'running', 'A was busy all along');
    assert.deepEqual(events.slice(0, 1), ['status-changed']);
    assert.equal(events.at(-1), 'task-ended');
    assert.ok(events.includes('step-ended'), events.join());
    assert.equal(held.runs('qtask-moved'), 1);
    // Its submitter pauses and resumes a task that runs on B (MCP and the dashboard go through A).
    const paused = await submit(a.tasks, { instruction: 'qhold-moved' });
    await until('running on B', async () => (await row(b, paused.taskId)).status === 'running');
    assert.equal((await row(b, paused.taskId)).ownerInstance, ownerOf(b));
    const viaA = { tasks: a.tasks, replicas: a.replicas };
    assert.equal(await commandTask(viaA, await row(a, paused.taskId), 'pause', 'ops'), true);
    assert.equal((await row(a, paused.taskId)).status, 'paused');
    assert.equal(await commandTask(viaA, await row(a, paused.taskId), 'resume', 'ops'), true);
    held.release('qhold-moved');
    assert.equal((await paused.done).status, 'finished');
    held.release('qhold-a');
    assert.equal((await hold.done).status, 'finished');
  });

  it('runs a queued task on the other replica after its submitter closed', async (t) => {
    const held = heldModel();
    const { a, startB } = await pair(t, held);
    await busy(a, 'qhold-a');
    const b = await startB();
    const holdB = await busy(b, 'qhold-b');
    const left = await submit(a.tasks, { instruction: 'qtask-left' });
    await sleep(300);
    const waiting = await row(b, left.taskId);
    assert.deepEqual([waiting.status, waiting.ownerInstance], ['queued', null]);
    await a.close();
    await assert.rejects(left.done, { code: 'TASK_LEFT_QUEUED' });
    assert.equal((await row(b, left.taskId)).status, 'queued', 'still waiting for a browser');
    held.release('qhold-b');
    assert.equal((await holdB.done).status, 'finished');
    await until('ran on B', async () => (await row(b, left.taskId)).status === 'finished');
    assert.equal((await row(b, left.taskId)).ownerInstance, ownerOf(b));
    assert.equal(held.runs('qtask-left'), 1);
  });

  it('runs each of many tasks exactly once while both replicas fetch, duplicate jobs included', async (t) => {
    const held = heldModel();
    const { url, a, startB } = await pair(t, held);
    const b = await startB();
    // A second job for every task, as a retried or re-sent job would be: only the claim stops it.
    const queue = await openPgTaskQueue({ url, logger: silentLogger });
    t.after(queue.close);
    const started = await Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        const tasks = i % 2 === 0 ? a.tasks : b.tasks;
        const plan = await tasks.admit({ instruction: `qtask-${i}` }, loopbackPrincipal);
        const task = await tasks.start(plan);
        await queue.send(task.taskId, plan);
        return task;
      }),
    );
    const results = await Promise.all(started.map((task) => task.done));
    assert.deepEqual(new Set(results.map((result) => result.status)), new Set(['finished']));
    // The duplicates are fetched too (polled) and skipped: no task starts twice.
    await until(
      'every job done',
      async () => (await jobStates(url)).every((s) => s === 'completed'),
      20_000,
    );
    for (let i = 0; i < 16; i++) assert.equal(held.runs(`qtask-${i}`), 1, `qtask-${i}`);
    const audit = await a.audit.list({ limit: 500 });
    for (const task of started)
      assert.equal(
        audit.filter((r) => r.taskId === task.taskId && r.type === 'task-started').length,
        1,
      );
    const owners = new Set(
      await Promise.all(started.map(async (task) => (await row(a, task.taskId)).ownerInstance)),
    );
    t.diagnostic(`ran on ${owners.size} replica(s)`);
  });

  it('aborts a queued task through either replica, refuses to pause it, and never runs it', async (t) => {
    const held = heldModel();
    const { url, a, startB } = await pair(t, held);
    const holdA = await busy(a, 'qhold-a');
    const b = await startB();
    const holdB = await busy(b, 'qhold-b');
    const viaB = await submit(a.tasks, { instruction: 'qtask-abort-via-b' });
    const viaA = await submit(b.tasks, { instruction: 'qtask-abort-via-a' });
    const own = await submit(a.tasks, { instruction: 'qtask-abort-own' });
    const replicasOfB = { tasks: b.tasks, replicas: b.replicas };
    await assert.rejects(commandTask(replicasOfB, await row(b, viaB.taskId), 'pause', 'ops'), {
      code: 'TASK_QUEUED',
    });
    for (const [replica, task] of [
      [b, viaB],
      [a, viaA],
    ] as const) {
      const response = await replica.app.request(`/v1/tasks/${task.taskId}/abort`, {
        method: 'POST',
      });
      assert.equal(response.status, 202, await response.clone().text());
    }
    assert.equal(a.tasks.abort(own.taskId), true);
    for (const task of [viaB, viaA, own]) {
      assert.equal((await task.done).status, 'aborted');
      assert.equal((await row(a, task.taskId)).status, 'aborted');
    }
    held.release('qhold-a');
    held.release('qhold-b');
    await Promise.all([holdA.done, holdB.done]);
    await until(
      'every job done',
      async () => (await jobStates(url)).every((s) => s === 'completed'),
      20_000,
    );
    for (const name of ['qtask-abort-via-b', 'qtask-abort-via-a', 'qtask-abort-own'])
      assert.equal(held.runs(name), 0, name);
    const ended = (await a.audit.list({ limit: 200 })).filter(
      (r) => r.type === 'task-ended' && [viaB, viaA, own].some((task) => task.taskId === r.taskId),
    );
    assert.equal(ended.length, 3, 'each abort audited once');
  });
});

/** The state of every job of the task queue. */
async function jobStates(url: string): Promise<string[]> {
  const { db, close } = await openPgDatabase(url);
  try {
    const { rows } = await db.$client.query<{ state: string }>(
      "SELECT state FROM pgboss.job WHERE name = 'clawdie-tasks'",
    );
    return rows.map((r) => r.state);
  } finally {
    await close();
  }
}

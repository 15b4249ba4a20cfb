// Tasks the shared PostgreSQL queue will never run end `error DISPATCH_FAILED` instead of staying
// `queued` unowned forever: one whose job failed its last retry, one whose job was removed unrun
// (pg-boss retention). Each is ended once (one audit row), and its submitter's `done` resolves.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { VisionModel } from '../../../controlplane/src/agent/model/chat-types.js';
import { openPgDatabase } from '../../../controlplane/src/platform/store/pg/pg-database.js';
import { openPgTaskQueue } from '../../../controlplane/src/platform/store/pg/pg-task-queue.js';
import type { CompactResult } from '../../../controlplane/src/tasks/task-input.js';
import { requires } from '../../support/capabilities.js';
import type { TestControlplane } from '../../support/controlplane.js';
import {
  dataDirWithKeyOf,
  freshDatabase,
  startReplica,
} from '../../support/postgres/replica-fixture.js';
import { silentLogger } from '../../support/silent-logger.js';
import { submit } from '../../support/submit-task.js';

const liveness = { heartbeatMs: 200, timeoutMs: 1_000 };

/** Finishes every task at once, except `hold` ones, which wait for their abort. */
const model: VisionModel = {
  name: 'hold',
  isReplay: true,
  async complete(request, signal) {
    if (JSON.stringify(request.messages).includes('hold'))
      await new Promise((_, reject) =>
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true }),
      );
    return { text: 'Action: finished(content="done")', requestBytes: 1, usage: null };
  },
};

const until = async (what: string, check: () => Promise<boolean>, ms = 30_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `${what}: not reached in ${ms} ms`);
    await sleep(50);
  }
};

/** `done`, or a rejection naming what it waited for after `ms`. */
const within = (done: Promise<CompactResult>, ms: number) =>
  Promise.race([
    done,
    sleep(ms).then(() => Promise.reject(new Error(`done did not resolve in ${ms} ms`))),
  ]);

async function sql<T>(url: string, text: string, values: unknown[]): Promise<T[]> {
  const { db, close } = await openPgDatabase(url);
  try {
    return (await db.$client.query(text, values)).rows as T[];
  } finally {
    await close();
  }
}
const jobState = async (url: string, taskId: string) =>
  (
    await sql<{ state: string }>(
      url,
      "SELECT state FROM pgboss.job WHERE name = 'clawdie-tasks' AND data->>'taskId' = $1",
      [taskId],
    )
  ).map((row) => row.state);

/** A replica whose one browser slot a held task occupies: it fetches no job. */
async function busyReplica(t: TestContext) {
  const url = await freshDatabase();
  const a = await startReplica(t, url, dataDirWithKeyOf(null, t), { model, liveness });
  const hold = await submit(a.tasks, { instruction: 'hold the browser' });
  t.after(() => a.tasks.abort(hold.taskId));
  await until(
    'hold running',
    async () => (await a.repository.getTask(hold.taskId))?.status === 'running',
  );
  return { url, a };
}

async function endedOnce(replica: TestControlplane, taskId: string) {
  const rows = await replica.audit.list({ taskId, limit: 100 });
  const ended = rows.filter((row) => row.type === 'task-ended');
  assert.equal(ended.length, 1, JSON.stringify(ended));
  assert.equal((ended[0]?.data as { error?: string } | undefined)?.error, 'DISPATCH_FAILED');
}

describe('queued tasks the shared queue will not run', requires('postgres'), () => {
  it('ends a task whose job failed its last retry DISPATCH_FAILED, once, and its submitter gets it', async (t) => {
    const { url, a } = await busyReplica(t);
    const stuck = await submit(a.tasks, { instruction: 'never dispatched' });
    // Another consumer fails the job on every try until pg-boss gives up on it.
    const queue = await openPgTaskQueue({ url, logger: silentLogger });
    t.after(queue.close);
    await until(
      'job failed to the end',
      async () => {
        const job = await queue.fetch();
        if (job) await queue.fail(job.id, 'test: cannot take it');
        return (await jobState(url, stuck.taskId)).includes('failed');
      },
      60_000,
    );
    const failedAt = performance.now();
    // A second replica sweeps too: the row is still ended and audited once.
    await startReplica(t, url, dataDirWithKeyOf(a.dataDir, t), { model, liveness });
    const result = await within(stuck.done, 15_000);
    t.diagnostic(`ended ${(performance.now() - failedAt).toFixed(0)} ms after the job failed`);
    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'DISPATCH_FAILED');
    const row = await a.repository.getTask(stuck.taskId);
    assert.equal(row?.status, 'error');
    assert.equal(row?.errorCode, 'DISPATCH_FAILED');
    assert.equal(row?.startedAt, null, 'it never started');
    await sleep(liveness.heartbeatMs * 3);
    await endedOnce(a, stuck.taskId);
  });

  it('ends a queued task whose job is gone unrun (archived or deleted) DISPATCH_FAILED', async (t) => {
    const { url, a } = await busyReplica(t);
    const stuck = await submit(a.tasks, { instruction: 'job removed' });
    await until('job stored', async () => (await jobState(url, stuck.taskId)).length > 0);
    await sql(url, "DELETE FROM pgboss.job WHERE data->>'taskId' = $1", [stuck.taskId]);
    const result = await within(stuck.done, 15_000);
    assert.equal(result.error?.code, 'DISPATCH_FAILED');
    await endedOnce(a, stuck.taskId);
  });
});

// The shared task queue on pg-boss: replicas starting at once on a fresh database create its schema
// once; jobs fetched by several replicas at once go to one each; a fetched job its replica never
// finished (it died before claiming the task) is handed out again after its expiry; a failed one
// is retried.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  openPgTaskQueue,
  type PgTaskQueueOptions,
} from '../../../../../controlplane/src/platform/store/pg/pg-task-queue.js';
import type { TaskQueue } from '../../../../../controlplane/src/platform/store/task-queue.js';
import { requires } from '../../../../support/capabilities.js';
import { freshDatabase } from '../../../../support/postgres/replica-fixture.js';
import { silentLogger } from '../../../../support/silent-logger.js';

async function queues(
  t: TestContext,
  count: number,
  options: Partial<PgTaskQueueOptions> = {},
): Promise<TaskQueue[]> {
  const url = await freshDatabase();
  // All at once on a database without the pgboss schema, as replicas starting together.
  const opened = await Promise.all(
    Array.from({ length: count }, () => openPgTaskQueue({ url, logger: silentLogger, ...options })),
  );
  t.after(() => Promise.all(opened.map((queue) => queue.close())));
  return opened;
}

/** Fetches with `queue` until it returns a job or `ms` pass. */
async function fetchWithin(queue: TaskQueue, ms: number) {
  const deadline = Date.now() + ms;
  for (;;) {
    const job = await queue.fetch();
    if (job || Date.now() > deadline) return job;
    await sleep(100);
  }
}

describe('the shared task queue (pg-boss)', requires('postgres'), () => {
  it('starts on a fresh database from three replicas at once and hands each job to one', async (t) => {
    const [a, b, c] = (await queues(t, 3)) as [TaskQueue, TaskQueue, TaskQueue];
    const plan = { tenant: 'default', input: { instruction: 'x' } };
    for (let i = 0; i < 30; i++) await a.send(`task-${i}`, plan);
    const fetched: string[] = [];
    await Promise.all(
      [a, b, c].map(async (queue) => {
        for (let job = await queue.fetch(); job; job = await queue.fetch()) {
          fetched.push(job.taskId);
          assert.deepEqual(job.plan, plan);
          await queue.complete(job.id);
        }
      }),
    );
    assert.equal(fetched.length, 30, 'every job fetched');
    assert.equal(new Set(fetched).size, 30, 'no job fetched twice');
    assert.equal(await b.fetch(), null);
  });

  it('hands a fetched job nobody finished out again after its expiry, and retries a failed one', async (t) => {
    const [a, b] = (await queues(t, 2, {
      expireInSeconds: 1,
      maintenanceIntervalSeconds: 1,
    })) as [TaskQueue, TaskQueue];
    await a.send('orphaned', {});
    const first = await a.fetch();
    assert.equal(first?.taskId, 'orphaned');
    // A dies here, between the fetch and the claim: nothing completes or fails the job.
    assert.equal(await b.fetch(), null, 'active: not handed out while its visibility lasts');
    const started = Date.now();
    const again = await fetchWithin(b, 10_000);
    assert.equal(again?.taskId, 'orphaned');
    t.diagnostic(`handed out again ${Date.now() - started} ms after the fetch`);
    await b.complete(again?.id ?? '');
    await a.send('failing', {});
    const failing = await a.fetch();
    await a.fail(failing?.id ?? '', 'the claim could not be tried');
    const retried = await fetchWithin(b, 5_000);
    assert.equal(retried?.taskId, 'failing');
  });
});

// PostgreSQL restarting under a writing controlplane: audit appends and task writes issued while
// the server is down wait for it and land once, the chain stays linear and verifies; errors about
// the statement itself are not retried.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAuditLog } from '../../../../../controlplane/src/governance/audit/audit-log.js';
import { createPgAuditRepository } from '../../../../../controlplane/src/platform/store/pg/pg-audit-repository.js';
import { openPgDatabase } from '../../../../../controlplane/src/platform/store/pg/pg-database.js';
import { isConnectionLoss } from '../../../../../controlplane/src/platform/store/pg/pg-retry.js';
import { createPgTaskRepository } from '../../../../../controlplane/src/platform/store/pg/pg-task-repository.js';
import { requires } from '../../../../support/capabilities.js';
import { fileCluster } from '../../../../support/postgres/start-postgres.js';

const skip = requires('postgres').skip;
const { cluster, database } = fileCluster();

describe('PostgreSQL restart under writes', { skip }, () => {
  it('loses no audit row and no task write, and the chain verifies', async () => {
    const running = await cluster();
    const { db, close } = await openPgDatabase(await running.createDatabase());
    try {
      const log = createAuditLog(createPgAuditRepository(db), { now: () => Date.now() });
      const tasks = createPgTaskRepository(db, { owner: 'replica-a' });
      await tasks.createTask({
        id: 't1',
        instruction: 'x',
        startUrl: null,
        maxSteps: 50,
        modelName: 'm',
        coordinateMode: 'c',
        createdAt: Date.now(),
      });
      let written = 0;
      let stop = false;
      const writer = (async () => {
        while (!stop) {
          written += 1;
          await log.append({
            type: 'task-started',
            actor: 'system',
            taskId: 't1',
            data: { written },
          });
          await tasks.insertStep('t1', written, Date.now());
        }
      })();
      while (written < 20) await new Promise((resolve) => setTimeout(resolve, 5));
      const before = written;
      // Down for a second: every write meanwhile waits for the server instead of failing.
      await running.restart(1_000);
      const deadline = Date.now() + 10_000;
      while (written < before + 20 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 10));
      stop = true;
      await writer;
      assert.ok(
        written >= before + 20,
        `writes resumed after the restart (${before} → ${written})`,
      );
      // No connection stays checked out (a failed BEGIN once kept one for good: the pool shrank
      // with every restart and closing it never returned).
      const pool = db.$client;
      assert.equal(pool.totalCount - pool.idleCount, 0, 'every connection is back in the pool');
      const verified = await log.verify();
      assert.deepEqual([verified.ok, verified.rows], [true, written]);
      assert.equal((await tasks.getTask('t1'))?.stepCount, written);
      assert.deepEqual(
        (await tasks.listSteps('t1')).map((step) => step.index),
        Array.from({ length: written }, (_, n) => n + 1),
      );
    } finally {
      await close();
    }
  });

  it('does not retry an error about the statement itself', async () => {
    const { db, close } = await openPgDatabase(await database());
    try {
      const started = Date.now();
      const error = await db.$client.query('SELECT * FROM no_such_table').then(
        () => null,
        (failure: unknown) => failure,
      );
      assert.ok(error instanceof Error && !isConnectionLoss(error), String(error));
      assert.ok(Date.now() - started < 1_000, 'failed at once');
    } finally {
      await close();
    }
  });
});

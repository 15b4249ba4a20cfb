// Several controlplanes on one PostgreSQL database, each with its own data dir: all may serve at
// once (each registers as a replica), every one needs the same audit key, and the tasks of a
// replica that stopped beating end INTERRUPTED within its timeout plus one heartbeat, audited once
// although every live replica sweeps.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadAuditKey } from '../../../controlplane/src/governance/audit/audit-key.js';
import { openPgDatabase } from '../../../controlplane/src/platform/store/pg/pg-database.js';
import { createPgInstanceRepository } from '../../../controlplane/src/platform/store/pg/pg-instance-repository.js';
import { createPgTaskRepository } from '../../../controlplane/src/platform/store/pg/pg-task-repository.js';
import { requires } from '../../support/capabilities.js';
import type { TestControlplaneOptions } from '../../support/controlplane.js';
import { createPerTaskScriptModel } from '../../support/per-task-script-model.js';
import {
  freshDatabase as database,
  dataDirWithKeyOf,
  startReplica,
} from '../../support/postgres/replica-fixture.js';

const model = createPerTaskScriptModel(['Action: finished(content="done")']);

const replica = (
  t: TestContext,
  url: string,
  dataDir: string,
  options: TestControlplaneOptions = {},
) => startReplica(t, url, dataDir, { model, ...options });

async function pg(t: TestContext, url: string) {
  const opened = await openPgDatabase(url);
  t.after(opened.close);
  return opened.db;
}

describe('controlplane replicas on one PostgreSQL database', requires('postgres'), () => {
  it('two servers with their own data dirs both start and each is registered', async (t) => {
    const url = await database();
    const first = await replica(t, url, dataDirWithKeyOf(null, t), { role: 'server' });
    const second = await replica(t, url, dataDirWithKeyOf(first.dataDir, t), { role: 'server' });
    const rows = await createPgInstanceRepository(await pg(t, url)).list();
    assert.deepEqual(
      rows.map((row) => row.kind),
      ['server', 'server'],
    );
    assert.notEqual(rows[0]?.id, rows[1]?.id);
    // Each owns its tasks as its replica: both appear as owners in the one tasks table.
    assert.equal(
      (await second.audit.verify()).ok,
      true,
      'the copied key verifies the shared chain',
    );
    assert.equal((await first.audit.verify()).ok, true);
  });

  it('refuses a replica whose audit key is missing or another one, naming what to copy', async (t) => {
    const url = await database();
    const first = await replica(t, url, dataDirWithKeyOf(null, t));
    await assert.rejects(replica(t, url, dataDirWithKeyOf(null, t)), {
      code: 'AUDIT_KEY_MISSING',
      message: /shared audit log already holds \d+ rows.*copy keys\/audit\.key/,
    });
    const stranger = dataDirWithKeyOf(null, t);
    loadAuditKey(join(stranger, 'keys', 'audit.key'), { create: { nextSeq: () => 1, now: 0 } });
    await assert.rejects(replica(t, url, stranger), {
      code: 'AUDIT_KEY_MISMATCH',
      message: /does not verify row \d+ of the shared audit log/,
    });
    assert.equal((await first.audit.verify()).ok, true, 'nothing was appended with a wrong key');
  });

  it('ends the tasks of a replica that stopped beating INTERRUPTED in bounded time, audited once', async (t) => {
    const url = await database();
    const liveness = { heartbeatMs: 100, timeoutMs: 1_500 };
    const first = await replica(t, url, dataDirWithKeyOf(null, t), { liveness });
    const second = await replica(t, url, dataDirWithKeyOf(first.dataDir, t), { liveness });

    // A replica on another machine registered, started a task, then died: no more heartbeats.
    const db = await pg(t, url);
    const diedAt = Date.now();
    // Elapsed time on the monotonic clock: a CI run once saw this poll stop at once, its
    // `Date.now()` bound apparently passed (a wall-clock step), with the task still running.
    const since = performance.now();
    await createPgInstanceRepository(db).registerUnless(
      {
        id: 'died',
        kind: 'server',
        pid: 4_000_000,
        hostname: 'another-machine',
        url: null,
        startedAt: diedAt,
        heartbeatAt: diedAt,
      },
      () => null,
    );
    const tasks = createPgTaskRepository(db, { owner: 'died' });
    await tasks.createTask({
      id: 'orphan',
      instruction: 'x',
      startUrl: null,
      maxSteps: 3,
      modelName: 'm',
      coordinateMode: '1.5',
      createdAt: diedAt,
      actor: 'tenant:acme/alice',
    });
    await tasks.markStarted('orphan', diedAt);

    await sleep(liveness.timeoutMs / 2);
    // Still running before its timeout: checked when the read starts well inside it (on a loaded
    // CI host the setup above once took past the whole timeout, and the sweep was right to end it).
    const readAt = Date.now();
    const early = await tasks.getTask('orphan');
    if (readAt - diedAt < liveness.timeoutMs - liveness.heartbeatMs)
      assert.equal(early?.status, 'running', 'not before its timeout');
    let ended = await tasks.getTask('orphan');
    while (ended?.endedAt === null && performance.now() - since < 10_000) {
      await sleep(25);
      ended = await tasks.getTask('orphan');
    }
    const tookMs = Math.round(performance.now() - since);
    assert.equal(ended?.status, 'error');
    assert.equal(ended?.errorCode, 'INTERRUPTED');
    // Timeout + one heartbeat, plus slack for a loaded machine.
    assert.ok(tookMs <= liveness.timeoutMs + liveness.heartbeatMs + 1_000, `${tookMs} ms`);
    t.diagnostic(`ended ${tookMs} ms after the last heartbeat`);

    // Both replicas keep sweeping; the task's end is audited exactly once.
    await sleep(5 * liveness.heartbeatMs);
    const rows = (await first.audit.list({ limit: 200 })).filter((row) => row.taskId === 'orphan');
    assert.deepEqual(
      rows.map((row) => [row.type, row.data.error, row.actor]),
      [['task-ended', 'INTERRUPTED', 'tenant:acme/alice']],
    );
    const instances = (await createPgInstanceRepository(db).list()).map((row) => row.id);
    assert.equal(instances.includes('died'), false, 'the dead replica is deregistered');
    assert.equal(instances.length, 2);
    assert.equal((await second.audit.verify()).ok, true);
  });
});

import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  claimDataDir,
  DataDirInUseError,
} from '../../../../controlplane/src/platform/ownership/data-dir-owner.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { createInstanceRepository } from '../../../../controlplane/src/platform/store/instance-repository.js';
import { createTaskRepository } from '../../../../controlplane/src/platform/store/task-repository.js';
import { createManualClock } from '../../../support/manual-clock.js';
import { silentLogger } from '../../../support/silent-logger.js';

const dir = mkdtempSync(join(tmpdir(), 'clawdie-owner-'));
let n = 0;
/** A fresh real SQLite file per test, with migrations applied. */
function freshDb() {
  const database = openDatabase(join(dir, `owner-${++n}.db`));
  after(database.close);
  return database.db;
}

const clock = createManualClock();
const base = { dataDir: '/srv/clawdie', logger: silentLogger, clock, hostname: 'here' };
const alive = new Set<number>([101, 102, 103]);
const probe = { ...base, isPidAlive: (pid: number) => alive.has(pid) };

function newTask(id: string) {
  return {
    id,
    instruction: id,
    startUrl: null,
    maxSteps: 5,
    modelName: 'm',
    coordinateMode: '1.5',
    createdAt: 1,
  };
}

describe('data-dir ownership', () => {
  it('refuses a second server while the first is live, naming its pid and URL, and allows one after a clean shutdown', async () => {
    const db = freshDb();
    const first = await claimDataDir(db, { ...probe, kind: 'server', pid: 101 });
    await first.setUrl('http://127.0.0.1:8700');
    await assert.rejects(
      claimDataDir(db, { ...probe, kind: 'server', pid: 102 }),
      (error: unknown) =>
        error instanceof DataDirInUseError &&
        error.code === 'DATA_DIR_IN_USE' &&
        /pid 101 on here, at http:\/\/127\.0\.0\.1:8700/.test(error.message) &&
        /CLAWDIE_DATA_DIR/.test(error.message),
    );
    await assert.rejects(claimDataDir(db, { ...probe, kind: 'cli', pid: 102 }), DataDirInUseError);
    await assert.rejects(claimDataDir(db, { ...probe, kind: 'mcp', pid: 102 }), DataDirInUseError);
    assert.equal(
      (await createInstanceRepository(db).list()).length,
      1,
      'the refused ones left no row',
    );
    await first.close();
    assert.deepEqual(await createInstanceRepository(db).list(), [], 'a clean shutdown deregisters');
    await (await claimDataDir(db, { ...probe, kind: 'server', pid: 102 })).close();
  });

  it('lets clients share a directory, and a server start beside them', async () => {
    const db = freshDb();
    const cli = await claimDataDir(db, { ...probe, kind: 'cli', pid: 101 });
    const mcp = await claimDataDir(db, { ...probe, kind: 'mcp', pid: 102 });
    const server = await claimDataDir(db, { ...probe, kind: 'server', pid: 103 });
    assert.deepEqual((await server.pruneGone()).sort(), [cli.id, mcp.id, server.id].sort());
    for (const owner of [cli, mcp, server]) await owner.close();
  });

  it('treats a server with a dead pid on this host, or a stale heartbeat anywhere, as gone', async () => {
    const db = freshDb();
    const dead = await claimDataDir(db, { ...probe, kind: 'server', pid: 999 });
    const cli = await claimDataDir(db, { ...probe, kind: 'cli', pid: 101 });
    assert.deepEqual(await cli.pruneGone(), [cli.id], 'pid 999 is not alive here');
    const remote = await claimDataDir(db, {
      ...probe,
      kind: 'server',
      pid: 999,
      hostname: 'there',
    });
    await assert.rejects(claimDataDir(db, { ...probe, kind: 'cli', pid: 102 }), DataDirInUseError);
    clock.advance(20_001);
    const later = await claimDataDir(db, { ...probe, kind: 'server', pid: 102 });
    assert.deepEqual(
      await later.pruneGone(),
      [later.id],
      'stale heartbeats: remote and cli are gone',
    );
    for (const owner of [dead, cli, remote, later]) await owner.close();
  });

  it('marks only tasks of gone owners INTERRUPTED, with the steps they recorded', async () => {
    const db = freshDb();
    const live = await claimDataDir(db, { ...probe, kind: 'mcp', pid: 101 });
    const gone = await claimDataDir(db, { ...probe, kind: 'server', pid: 998 });
    const liveTasks = createTaskRepository(db, { owner: live.id });
    const goneTasks = createTaskRepository(db, { owner: gone.id });
    for (const [repository, id] of [
      [liveTasks, 'live-task'],
      [goneTasks, 'gone-task'],
    ] as const) {
      await repository.createTask(newTask(id));
      await repository.markStarted(id, 2);
      await repository.insertStep(id, 1, 3);
      await repository.insertStep(id, 2, 4);
    }
    const newcomer = await claimDataDir(db, { ...probe, kind: 'cli', pid: 102 });
    const repository = createTaskRepository(db, { owner: newcomer.id });
    assert.deepEqual(await repository.failInterrupted(5, await newcomer.pruneGone()), [
      { id: 'gone-task', actor: null, stepCount: 2 },
    ]);
    assert.equal((await repository.getTask('live-task'))?.status, 'running');
    assert.equal((await repository.getTask('live-task'))?.stepCount, 2);
    const interrupted = await repository.getTask('gone-task');
    assert.equal(interrupted?.status, 'error');
    assert.equal(interrupted?.errorCode, 'INTERRUPTED');
    assert.equal(interrupted?.stepCount, 2, 'the steps it really recorded');
    for (const owner of [live, gone, newcomer]) await owner.close();
  });

  it('writes heartbeats on its interval and registers again when another process removed it', async () => {
    const db = freshDb();
    const owner = await claimDataDir(db, { ...probe, kind: 'cli', pid: 101, heartbeatMs: 10 });
    const instances = createInstanceRepository(db);
    const before = (await instances.list())[0]?.heartbeatAt ?? 0;
    clock.advance(1_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal((await instances.list())[0]?.heartbeatAt, before + 1_000);
    await instances.remove([owner.id]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(
      (await instances.list()).map((row) => row.id),
      [owner.id],
    );
    await owner.close();
  });
});

// Replicas on one PostgreSQL database whose machines' clocks disagree by 60 s. Heartbeats are
// written and judged by the database's clock, so a replica never takes a live one for dead
// because of its own clock (it would end the other's tasks INTERRUPTED and reap its clones at
// every heartbeat), and one that stopped beating is still pruned after the timeout.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type DataDirOwner,
  registerInstance,
} from '../../../../controlplane/src/platform/ownership/data-dir-owner.js';
import { openPgDatabase } from '../../../../controlplane/src/platform/store/pg/pg-database.js';
import { createPgInstanceRepository } from '../../../../controlplane/src/platform/store/pg/pg-instance-repository.js';
import { requires } from '../../../support/capabilities.js';
import { fileCluster } from '../../../support/postgres/start-postgres.js';
import { silentLogger } from '../../../support/silent-logger.js';

const { database } = fileCluster();
const heartbeatMs = 100;
const timeoutMs = 1_000;

interface Replica {
  owner: DataDirOwner;
  /** Stops its heartbeat writes, as a replica that hangs or vanishes (its row stays). */
  stopBeating(): void;
}

/** A server replica on `url` on its own host whose clock reads `skewMs` off this one's. */
async function replica(t: TestContext, url: string, host: string, skewMs: number) {
  const opened = await openPgDatabase(url);
  const repository = createPgInstanceRepository(opened.db);
  let beating = true;
  const owner = await registerInstance(
    {
      ...repository,
      heartbeat: (id, at) => (beating ? repository.heartbeat(id, at) : Promise.resolve(true)),
    },
    {
      kind: 'server',
      exclusive: false,
      dataDir: `/srv/${host}`,
      logger: silentLogger,
      clock: { now: () => Date.now() + skewMs },
      hostname: host,
      heartbeatMs,
      timeoutMs,
    },
  );
  t.after(async () => {
    await owner.close();
    await opened.close();
  });
  return {
    owner,
    stopBeating: () => {
      beating = false;
    },
  } satisfies Replica;
}

describe('replica liveness with clocks 60 s apart', requires('postgres'), () => {
  it('two beating replicas never prune each other, whichever clock is ahead', async (t) => {
    const url = await database();
    const behind = await replica(t, url, 'host-a', 0);
    const ahead = await replica(t, url, 'host-b', 60_000);
    const both = [behind.owner.id, ahead.owner.id].sort();
    // Two timeouts' worth of rounds, each replica sweeping as the controlplane does every beat.
    for (let round = 0; round < 8; round++) {
      assert.deepEqual((await ahead.owner.pruneGone()).sort(), both, `round ${round}: ahead`);
      assert.deepEqual((await behind.owner.pruneGone()).sort(), both, `round ${round}: behind`);
      await sleep(timeoutMs / 4);
    }
  });

  it('prunes a replica that stopped beating once its heartbeat is older than the timeout by the database', async (t) => {
    const url = await database();
    const live = await replica(t, url, 'host-a', 0);
    // Its clock is a minute ahead: judged by its own times it would look live for 61 s.
    const stopped = await replica(t, url, 'host-b', 60_000);
    const both = [live.owner.id, stopped.owner.id].sort();
    stopped.stopBeating();
    const since = Date.now();
    await sleep(timeoutMs / 2);
    assert.deepEqual((await live.owner.pruneGone()).sort(), both, 'within the timeout it counts');
    let remaining = both;
    while (remaining.length > 1 && Date.now() - since < timeoutMs * 4) {
      await sleep(heartbeatMs);
      remaining = await live.owner.pruneGone();
    }
    assert.deepEqual(remaining, [live.owner.id], 'the silent replica is pruned');
    const elapsed = Date.now() - since;
    assert.ok(elapsed >= timeoutMs, `not before the timeout (${elapsed} ms)`);
    assert.deepEqual(
      (await live.owner.live()).map((row) => row.id),
      [live.owner.id],
    );
  });
});

// The role lock on PostgreSQL (a session advisory lock on its own connection): of two replicas
// one holds the role; when the holder's session ends (its process died, its connection was cut:
// here pg_terminate_backend) the holder is told and the other takes the role within one period;
// a holder that closes gives the role up at once; another role's lock is independent.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RoleLock } from '../../../../../controlplane/src/platform/lock/role-lock.js';
import { createPgRoleLock } from '../../../../../controlplane/src/platform/store/pg/pg-role-lock.js';
import { requires } from '../../../../support/capabilities.js';
import {
  type PostgresCluster,
  startPostgres,
} from '../../../../support/postgres/start-postgres.js';
import { terminateRoleHolder } from '../../../../support/postgres/terminate-role-holder.js';
import { silentLogger } from '../../../../support/silent-logger.js';

const retryMs = 200;
let cluster: Promise<PostgresCluster> | null = null;
after(async () => {
  if (cluster) await (await cluster).stop();
});

/** A role lock and the changes it reported, in order. */
function contender(url: string, name = 'telegram-poll:1') {
  const lock: RoleLock = createPgRoleLock({ url, name, logger: silentLogger, retryMs });
  const changes: boolean[] = [];
  let changedAt = 0;
  lock.start((held) => {
    changes.push(held);
    changedAt = performance.now();
  });
  return {
    lock,
    changes,
    held: () => changes.at(-1) === true,
    changedAt: () => changedAt,
  };
}

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!check()) {
    assert.ok(performance.now() < deadline, `${what} within ${ms} ms`);
    await sleep(10);
  }
}

describe('role lock on PostgreSQL', requires('postgres'), () => {
  it('one of two holds the role; the other takes it within a period once the holder session ends', async (t) => {
    cluster ??= startPostgres();
    const url = await (await cluster).createDatabase();
    const one = contender(url);
    await until(one.held, 5_000, 'the first takes the role');
    const two = contender(url);
    const other = contender(url, 'another-role');
    t.after(() => Promise.all([one, two, other].map((each) => each.lock.close())));
    await until(other.held, 5_000, 'another role is independent');
    await sleep(3 * retryMs);
    assert.deepEqual([one.changes, two.changes], [[true], []], 'the second waits');

    const ended = performance.now();
    await terminateRoleHolder(url, 'telegram-poll:1');
    await until(() => two.held(), retryMs + 1_500, 'the second takes over');
    const tookMs = two.changedAt() - ended;
    assert.deepEqual(one.changes, [true, false], 'the former holder was told');
    assert.ok(one.changedAt() <= two.changedAt(), 'told before the other took it');
    await sleep(4 * retryMs);
    assert.deepEqual([one.changes, two.changes], [[true, false], [true]], 'it stays with one');
    t.diagnostic(`holder session ended → the other holds the role in ${tookMs.toFixed(0)} ms`);

    const closed = performance.now();
    await two.lock.close();
    await until(() => one.held(), retryMs + 1_500, 'the first takes it back after a close');
    assert.deepEqual(two.changes, [true], 'no change reported after close');
    t.diagnostic(
      `holder closed → the other holds it in ${(performance.now() - closed).toFixed(0)} ms`,
    );
  });
});

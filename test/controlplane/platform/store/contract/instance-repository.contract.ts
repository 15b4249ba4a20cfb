import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { InstanceRecord } from '../../../../../controlplane/src/platform/store/instance-repository.js';
import { freshConnection, type StoreBackend } from './store-backends.js';

/** Past 2^31 ms, as every real timestamp is: the store must keep 64-bit integers. */
const T = 1_795_000_000_000;
const instance = (id: string, extra: Partial<InstanceRecord> = {}): InstanceRecord => ({
  id,
  kind: 'server',
  pid: 4242,
  hostname: 'here',
  url: null,
  startedAt: T,
  heartbeatAt: T,
  ...extra,
});
const blockOnAny = (rows: InstanceRecord[]) => rows[0] ?? null;
/** A row without its times (which a store with its own clock sets itself). */
const untimed = ({ startedAt: _s, heartbeatAt: _h, heartbeatAgeMs: _a, ...rest }: InstanceRecord) =>
  rest;

/**
 * The times a store with its own clock wrote: its clock's, not the caller's (T lies years ahead),
 * a heartbeat age by that clock that is small and not negative. A store without a clock keeps
 * the caller's times and reports no age.
 */
function assertTimes(
  ownClock: boolean,
  row: InstanceRecord | undefined,
  given: { startedAt: number; heartbeatAt: number },
): void {
  assert.ok(row, 'no row');
  if (!ownClock) {
    assert.deepEqual(
      [row.startedAt, row.heartbeatAt, row.heartbeatAgeMs],
      [given.startedAt, given.heartbeatAt, undefined],
    );
    return;
  }
  // The throwaway cluster runs on this machine, so its clock is this one's.
  assert.ok(
    Math.abs(row.heartbeatAt - Date.now()) < 60_000,
    `${row.heartbeatAt} is the database's`,
  );
  assert.ok(row.startedAt <= row.heartbeatAt);
  assert.ok(
    row.heartbeatAgeMs !== undefined && row.heartbeatAgeMs >= 0 && row.heartbeatAgeMs < 10_000,
    `heartbeat age ${row.heartbeatAgeMs} by the database's clock`,
  );
}

/** Behaviour every InstanceRepository adapter must have. */
export function instanceRepositoryContract(backend: StoreBackend): void {
  describe(`InstanceRepository contract: ${backend.name}`, { skip: backend.skip }, () => {
    it('registers when the blocker finds nothing, and lists the row as given', async (t) => {
      const { instances } = await freshConnection(backend, t);
      const seen: InstanceRecord[][] = [];
      const row = instance('a', { kind: 'mcp', url: 'http://127.0.0.1:1' });
      const blocker = (rows: InstanceRecord[]) => {
        seen.push(rows);
        return null;
      };
      assert.equal(await instances.registerUnless(row, blocker), null);
      assert.deepEqual(seen, [[]]);
      const listed = await instances.list();
      assert.deepEqual(listed.map(untimed), [untimed(row)]);
      assertTimes(backend.ownClock, listed[0], row);
    });

    it('inserts nothing and returns the blocking row when the blocker returns one', async (t) => {
      const { instances } = await freshConnection(backend, t);
      await instances.registerUnless(instance('a'), () => null);
      await instances.registerUnless(instance('b', { kind: 'cli' }), () => null);
      let seen: InstanceRecord[] = [];
      const blocked = await instances.registerUnless(instance('c'), (rows) => {
        seen = rows;
        return rows.find((row) => row.kind === 'cli') ?? null;
      });
      assert.equal(blocked?.id, 'b');
      assert.deepEqual(
        seen.map((row) => row.id),
        ['a', 'b'],
      );
      assert.deepEqual(
        (await instances.list()).map((row) => row.id),
        ['a', 'b'],
      );
    });

    it('lists oldest first, then by id', {
      skip: backend.ownClock && 'times are the store’s',
    }, async (t) => {
      const { instances } = await freshConnection(backend, t);
      for (const [id, startedAt] of [
        ['m', T + 2],
        ['z', T],
        ['a', T + 2],
      ] as const) {
        await instances.registerUnless(instance(id, { startedAt }), () => null);
      }
      await instances.heartbeat('z', T + 9);
      assert.deepEqual(
        (await instances.list()).map((row) => row.id),
        ['z', 'a', 'm'],
      );
    });

    it('lists in the order of registration when the store keeps time', {
      skip: !backend.ownClock && 'times are the caller’s',
    }, async (t) => {
      const { instances } = await freshConnection(backend, t);
      for (const id of ['m', 'z', 'a']) {
        // Given start times in reverse: the store's own clock decides.
        await instances.registerUnless(
          instance(id, { startedAt: T - id.charCodeAt(0) }),
          () => null,
        );
        await sleep(3);
      }
      assert.deepEqual(
        (await instances.list()).map((row) => row.id),
        ['m', 'z', 'a'],
      );
    });

    it('refreshes a heartbeat and records the URL; false for a row that is gone', async (t) => {
      const { instances } = await freshConnection(backend, t);
      await instances.registerUnless(instance('a'), () => null);
      const [registered] = await instances.list();
      await sleep(5);
      assert.equal(await instances.heartbeat('a', T + 5_000), true);
      await instances.setUrl('a', 'http://127.0.0.1:8700');
      const listed = await instances.list();
      assert.deepEqual(listed.map(untimed), [
        untimed(instance('a', { url: 'http://127.0.0.1:8700' })),
      ]);
      assertTimes(backend.ownClock, listed[0], { startedAt: T, heartbeatAt: T + 5_000 });
      if (backend.ownClock)
        assert.ok(
          (listed[0]?.heartbeatAt ?? 0) > (registered?.heartbeatAt ?? Infinity),
          'the beat wrote the database’s later time',
        );
      assert.equal(await instances.heartbeat('gone', T + 5_000), false);
    });

    it('removes the given rows only, and nothing for an empty list', async (t) => {
      const { instances } = await freshConnection(backend, t);
      for (const id of ['a', 'b', 'c']) await instances.registerUnless(instance(id), () => null);
      await instances.remove([]);
      await instances.remove(['a', 'c', 'unknown']);
      assert.deepEqual(
        (await instances.list()).map((row) => row.id),
        ['b'],
      );
    });

    it('lets exactly one of many concurrent registrants through a blocker that blocks on any row', async (t) => {
      // Two connections, as two replicas starting at once; three registrations each.
      const fresh = await backend.fresh();
      const replicas = [await fresh.connect(), await fresh.connect()];
      t.after(() => Promise.all(replicas.map((replica) => replica.close())));
      const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
      const results = await Promise.all(
        ids.map((id, i) =>
          (replicas[i % 2] ?? assert.fail()).instances.registerUnless(instance(id), blockOnAny),
        ),
      );
      const winners = ids.filter((_, i) => results[i] === null);
      assert.equal(winners.length, 1, `one registration passes, not ${winners.join(', ')}`);
      const listed = await (replicas[0] ?? assert.fail()).instances.list();
      assert.deepEqual(
        listed.map((row) => row.id),
        winners,
      );
      for (const result of results) if (result) assert.equal(result.id, winners[0]);
    });

    it('gives every connection the one store id, made once even when several ask at once', async (t) => {
      const fresh = await backend.fresh();
      const replicas = [await fresh.connect(), await fresh.connect()];
      t.after(() => Promise.all(replicas.map((replica) => replica.close())));
      const ids = await Promise.all(
        [0, 1, 2, 3].map((i) => (replicas[i % 2] ?? assert.fail()).instances.storeId()),
      );
      assert.equal(new Set(ids).size, 1, `one id, not ${ids.join(', ')}`);
      assert.match(ids[0] ?? '', /^[0-9a-f]{32}$/);
      const other = await freshConnection(backend, t);
      assert.notEqual(await other.instances.storeId(), ids[0], 'another database, another store');
    });
  });
}

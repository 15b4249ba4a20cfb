import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAuditLog } from '../../../../../controlplane/src/governance/audit/audit-log.js';
import { freshConnection, type StoreBackend } from './store-backends.js';

const T = 1_795_000_000_000;
const clock = { now: () => T };

/** Behaviour every AuditStore adapter must have. */
export function auditStoreContract(backend: StoreBackend): void {
  describe(`AuditStore contract: ${backend.name}`, { skip: backend.skip }, () => {
    it('chains appends from the empty log, pages them by seq and finds rows by hash', async (t) => {
      const { audit } = await freshConnection(backend, t);
      assert.equal(await audit.tail(), null);
      const log = createAuditLog(audit, clock);
      for (let n = 1; n <= 5; n += 1)
        await log.append({ type: 'task-started', actor: 'system', taskId: `t${n}`, data: { n } });
      const tail = await audit.tail();
      assert.equal(tail?.seq, 5);
      assert.deepEqual(
        (await audit.page(0, 2)).map((row) => row.seq),
        [1, 2],
      );
      assert.deepEqual(
        (await audit.page(3, 100)).map((row) => row.seq),
        [4, 5],
      );
      const [third] = await audit.page(2, 1);
      assert.equal(await audit.hashAt(3), third?.hash);
      assert.equal(await audit.seqOfHash(third?.hash ?? ''), 3);
      assert.equal(await audit.seqOfHash('nope'), null);
      assert.equal(await audit.hashAt(99), null);
      const verified = await log.verify();
      assert.deepEqual([verified.ok, verified.rows], [true, 5]);
    });

    it('lists by task, type, time and tenant (its actors and its tasks), newest first when asked', async (t) => {
      const { audit, tasks } = await freshConnection(backend, t);
      await tasks.createTask({
        id: 'acme-task',
        instruction: 'x',
        startUrl: null,
        maxSteps: 1,
        modelName: 'm',
        coordinateMode: 'c',
        createdAt: T,
        tenant: 'acme',
      });
      let now = T;
      const log = createAuditLog(audit, { now: () => (now += 10) });
      await log.append({ type: 'token-created', actor: 'tenant:acme/admin', data: {} });
      await log.append({
        type: 'task-started',
        actor: 'tenant:acme/bot',
        taskId: 'acme-task',
        data: {},
      });
      await log.append({
        type: 'task-started',
        actor: 'tenant:globex/ops',
        taskId: 'other',
        data: {},
      });
      await log.append({ type: 'auth-failed', actor: 'tenant:acme-corp/x', data: {} });
      const seqs = async (query: Parameters<typeof audit.list>[0]) =>
        (await audit.list(query)).map((row) => row.seq);
      assert.deepEqual(await seqs({ limit: 10, tenant: 'acme' }), [1, 2]);
      assert.deepEqual(await seqs({ limit: 10, type: 'task-started', newestFirst: true }), [3, 2]);
      assert.deepEqual(await seqs({ limit: 10, taskId: 'other' }), [3]);
      assert.deepEqual(await seqs({ limit: 10, since: T + 20, until: T + 30 }), [2, 3]);
      assert.deepEqual(await seqs({ limit: 2, afterSeq: 1 }), [2, 3]);
      assert.deepEqual(await seqs({ limit: 10, beforeSeq: 3 }), [1, 2]);
    });

    it('stays one linear chain under concurrent appenders on separate connections', async (t) => {
      const fresh = await backend.fresh();
      const connections = await Promise.all([1, 2, 3, 4].map(() => fresh.connect()));
      t.after(() => Promise.all(connections.map((connection) => connection.close())));
      const logs = connections.map((connection) => createAuditLog(connection.audit, clock));
      await Promise.all(
        logs.flatMap((log, replica) =>
          Array.from({ length: 25 }, (_, n) =>
            log.append({ type: 'action-executed', actor: `replica-${replica}`, data: { n } }),
          ),
        ),
      );
      const rows = await connections[0]?.audit.page(0, 1000);
      assert.deepEqual(
        rows?.map((row) => row.seq),
        Array.from({ length: 100 }, (_, n) => n + 1),
      );
      const verified = await logs[0]?.verify();
      assert.deepEqual([verified?.ok, verified?.rows], [true, 100]);
    });
  });
}

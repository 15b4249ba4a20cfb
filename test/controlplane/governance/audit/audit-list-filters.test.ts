import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAuditLog } from '../../../../controlplane/src/governance/audit/audit-log.js';
import { createAuditRepository } from '../../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';

describe('audit list filters', () => {
  it('filters by tenant (its principals or its tasks), type and time; newest first with paging', async () => {
    const database = openDatabase(':memory:');
    try {
      database.db.$client
        .prepare(
          `INSERT INTO tasks (id, instruction, status, max_steps, model_name, coordinate_mode, created_at, tenant)
           VALUES (?, 'x', 'finished', 5, 'm', 'absolute', 0, ?)`,
        )
        .run('task-acme', 'acme');
      let now = 1_000;
      const audit = createAuditLog(createAuditRepository(database.db), { now: () => now });
      const add = async (
        type: 'task-started' | 'action-executed',
        actor: string,
        taskId: string | null,
      ) => {
        now += 1_000;
        return (await audit.append({ type, actor, taskId })).seq;
      };
      const a = await add('task-started', 'tenant:acme/alice', 'task-acme');
      const b = await add('action-executed', 'system', 'task-acme');
      await add('action-executed', 'tenant:acme2/bob', null);
      await add('action-executed', 'tenant:other/eve', null);
      const c = await add('task-started', 'tenant:acme/alice', null);
      const seqs = async (query: Parameters<typeof audit.list>[0]) =>
        (await audit.list(query)).map((row) => row.seq);
      assert.deepEqual(await seqs({ limit: 10, tenant: 'acme', newestFirst: true }), [c, b, a]);
      assert.deepEqual(await seqs({ limit: 10, tenant: 'acme', type: 'action-executed' }), [b]);
      assert.deepEqual(await seqs({ limit: 10, tenant: "acme' OR 1=1 --" }), []);
      assert.deepEqual(await seqs({ limit: 10, since: 3_000, until: 4_000 }), [2, 3]);
      assert.deepEqual(await seqs({ limit: 2, newestFirst: true, beforeSeq: 5 }), [4, 3]);
      assert.deepEqual(await seqs({ limit: 2, afterSeq: 3 }), [4, 5]);
    } finally {
      database.close();
    }
  });
});

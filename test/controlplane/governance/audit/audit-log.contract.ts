import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuditTrail } from '../../../../controlplane/src/governance/audit/audit-log.js';
import { GENESIS_HASH } from '../../../../controlplane/src/governance/audit/hash-chain.js';

/** Behaviour every AuditLog adapter must have; `create` returns a fresh, empty log. */
export function auditLogContract(name: string, create: () => { log: AuditTrail; close(): void }) {
  describe(`AuditLog contract: ${name}`, () => {
    it('chains rows from the genesis hash with gap-free sequence numbers', async () => {
      const { log, close } = create();
      const first = await log.append({ type: 'task-started', actor: 'system', taskId: 't1' });
      const second = await log.append({
        type: 'task-ended',
        actor: 'system',
        taskId: 't1',
        data: { status: 'finished' },
      });
      assert.equal(first.seq, 1);
      assert.equal(first.prevHash, GENESIS_HASH);
      assert.equal(second.seq, 2);
      assert.equal(second.prevHash, first.hash);
      assert.match(second.hash, /^[0-9a-f]{64}$/);
      close();
    });

    it('stores data as canonical JSON, whatever the key order', async () => {
      const { log, close } = create();
      const a = await log.append({
        type: 'policy-decided',
        actor: 'x',
        data: { b: 1, a: { d: 2, c: 3 } },
      });
      assert.deepEqual(a.data, { a: { c: 3, d: 2 }, b: 1 });
      assert.deepEqual(Object.keys(a.data), ['a', 'b']);
      close();
    });

    it('verifies an untouched log and reports its head', async () => {
      const { log, close } = create();
      assert.deepEqual(await log.verify(), {
        ok: true,
        rows: 0,
        headSeq: 0,
        headHash: GENESIS_HASH,
      });
      let last = await log.append({
        type: 'auth-failed',
        actor: 'anonymous',
        data: { code: 'TOKEN_MISSING' },
      });
      for (let i = 0; i < 20; i++)
        last = await log.append({ type: 'action-executed', actor: 'system', taskId: `t${i % 3}` });
      assert.deepEqual(await log.verify(), {
        ok: true,
        rows: 21,
        headSeq: 21,
        headHash: last.hash,
      });
      close();
    });

    it('lists rows after a sequence number, optionally for one task', async () => {
      const { log, close } = create();
      for (let i = 0; i < 6; i++)
        await log.append({
          type: 'action-executed',
          actor: 'system',
          taskId: i % 2 ? 'odd' : 'even',
        });
      assert.deepEqual(
        (await log.list({ limit: 10, afterSeq: 4 })).map((r) => r.seq),
        [5, 6],
      );
      assert.deepEqual(
        (await log.list({ limit: 10, taskId: 'odd' })).map((r) => r.seq),
        [2, 4, 6],
      );
      assert.deepEqual(
        (await log.list({ limit: 1 })).map((r) => r.seq),
        [1],
      );
      close();
    });
  });
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApprovalRecord } from '../../../../../controlplane/src/governance/approvals/approval-types.js';
import { freshConnection, type StoreBackend } from './store-backends.js';

const T = 1_795_000_000_000;
const approval = (id: string, extra: Partial<ApprovalRecord> = {}): ApprovalRecord => ({
  id,
  taskId: `task-${id}`,
  tenant: 'acme',
  kind: 'navigation',
  reason: `why ${id}`,
  detail: { url: 'https://example.test/', nested: { list: [1, 'two', null] } },
  status: 'pending',
  requestedAt: T,
  expiresAt: T + 60_000,
  answeredAt: null,
  answeredBy: null,
  ...extra,
});

/** Behaviour every ApprovalStore adapter must have. */
export function approvalStoreContract(backend: StoreBackend): void {
  describe(`ApprovalStore contract: ${backend.name}`, { skip: backend.skip }, () => {
    it('returns an inserted request as given, and null for an unknown id', async (t) => {
      const { approvals } = await freshConnection(backend, t);
      const rows = [approval('a'), approval('b', { taskId: null, kind: 'credential' })];
      for (const row of rows) await approvals.insert(row);
      assert.deepEqual(await approvals.get('a'), rows[0]);
      assert.deepEqual(await approvals.get('b'), rows[1]);
      assert.equal(await approvals.get('unknown'), null);
    });

    it('lists newest first, up to the limit, optionally by status', async (t) => {
      const { approvals } = await freshConnection(backend, t);
      await approvals.insert(approval('old', { requestedAt: T }));
      await approvals.insert(approval('new', { requestedAt: T + 2 }));
      await approvals.insert(approval('mid', { requestedAt: T + 1, status: 'denied' }));
      const ids = (rows: ApprovalRecord[]) => rows.map((row) => row.id);
      assert.deepEqual(ids(await approvals.list({ limit: 10 })), ['new', 'mid', 'old']);
      assert.deepEqual(ids(await approvals.list({ limit: 2 })), ['new', 'mid']);
      assert.deepEqual(ids(await approvals.list({ status: 'pending', limit: 10 })), ['new', 'old']);
      assert.deepEqual(ids(await approvals.list({ status: 'approved', limit: 10 })), []);
    });

    it('closes a request only while it is pending', async (t) => {
      const { approvals } = await freshConnection(backend, t);
      await approvals.insert(approval('a'));
      assert.equal(await approvals.close('a', 'approved', T + 5, 'tenant:acme/boss'), true);
      assert.equal(await approvals.close('a', 'denied', T + 6, 'tenant:acme/other'), false);
      assert.deepEqual(
        await approvals.get('a'),
        approval('a', { status: 'approved', answeredAt: T + 5, answeredBy: 'tenant:acme/boss' }),
      );
      assert.equal(await approvals.close('unknown', 'expired', T + 5, null), false);
    });

    it('records an expiry without a supervisor', async (t) => {
      const { approvals } = await freshConnection(backend, t);
      await approvals.insert(approval('a'));
      assert.equal(await approvals.close('a', 'expired', T + 60_000, null), true);
      assert.deepEqual(
        await approvals.get('a'),
        approval('a', { status: 'expired', answeredAt: T + 60_000 }),
      );
    });
  });
}

// Which leases a controlplane revokes on a hostd: those of its own store whose holder is gone, its
// own only when asked; never another store's, a holder without a store id, an unnamed lease or a
// lease of a hostd older than holders. A real hostd app (fake clones).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Clone } from '@clawdie/hostd/api';
import { HostdClient } from '@clawdie/hostd/client';
import { holderName } from '../../../../controlplane/src/browser/provider/lease-holder.js';
import {
  createOrphanReaper,
  type LeaseHolders,
} from '../../../../controlplane/src/browser/provider/orphan-clones.js';
import type {
  AuditEvent,
  AuditLog,
  AuditRecord,
} from '../../../../controlplane/src/governance/audit/audit-log.js';
import { capturingLogger } from '../../../support/capturing-logger.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { startHostd } from '../../fleet/fleet-fixture.js';

const TOKEN = 'hostd-token-0123456789abcdef';
const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const close of closers) await close();
});

function recordingAudit(): AuditLog & { events: AuditEvent[] } {
  const events: AuditEvent[] = [];
  return {
    events,
    async append(event) {
      events.push(event);
      return {} as AuditRecord;
    },
  };
}

const STORE = 'store-a';
/** The holder name of `instance` of this test's store (or of `store`). */
const of = (instance: string, store = STORE) => holderName({ store, instance });

/** `me` and the other live instances of the store. */
const holders = (me: string, others: string[]): LeaseHolders => ({
  store: STORE,
  id: me,
  live: async () => [me, ...others].map((id) => ({ id })),
});

async function hostWith(leases: { taskId: string; holder?: string }[]) {
  const hostd = await startHostd(TOKEN);
  closers.push(hostd.close);
  for (const lease of leases) await hostd.manager.create({ ...lease, allowedDomains: [] });
  const client = new HostdClient({ baseUrl: hostd.url, token: TOKEN });
  const left = async () => (await client.listClones()).map((clone) => clone.taskId).sort();
  return { client, left };
}

describe('reaping the clones no live controlplane of this store holds', () => {
  it('revokes gone holders’ leases of its store, never a live one’s, its own only when asked', async () => {
    const { client, left } = await hostWith([
      { taskId: 'gone', holder: of('crashed') },
      { taskId: 'live', holder: of('other') },
      { taskId: 'mine', holder: of('me') },
    ]);
    const audit = recordingAudit();
    const reaper = createOrphanReaper({
      holders: holders('me', ['other']),
      audit,
      logger: silentLogger,
    });
    assert.equal(await reaper.reap(client, await client.listClones()), 1);
    assert.deepEqual(await left(), ['live', 'mine']);
    assert.deepEqual(
      audit.events.map((event) => [event.type, event.taskId, event.data?.holder]),
      [['clone-destroyed', 'gone', of('crashed')]],
    );
    assert.equal(await reaper.reap(client, await client.listClones(), { own: true }), 1);
    assert.deepEqual(await left(), ['live']);
  });

  it('never revokes a lease it cannot attribute to its store, and says so once per holder', async () => {
    const { client, left } = await hostWith([
      { taskId: 'other-store', holder: of('someone', 'store-b') },
      { taskId: 'older-controlplane', holder: 'bare-instance-id' },
      { taskId: 'unnamed' },
      { taskId: 'orphan', holder: of('crashed') },
    ]);
    const audit = recordingAudit();
    const { logger, lines } = capturingLogger('info');
    // Alone in its store: before store ids, this revoked the unnamed lease too.
    const reaper = createOrphanReaper({ holders: holders('me', []), audit, logger });
    assert.equal(await reaper.reap(client, await client.listClones()), 1);
    assert.deepEqual(await left(), ['older-controlplane', 'other-store', 'unnamed']);
    assert.deepEqual(
      audit.events.map((event) => [event.taskId, event.data?.reason]),
      [['orphan', 'holder replica gone']],
    );
    assert.equal(await reaper.reap(client, await client.listClones(), { own: true }), 0);
    const alone = lines
      .map((line) => JSON.parse(line) as { msg: string; holder?: string; why?: string })
      .filter((line) => line.msg.startsWith('left alone'));
    assert.deepEqual(
      alone.map((line) => [line.holder, line.why]).sort(),
      [
        ['(unnamed)', 'unnamed'],
        ['bare-instance-id', 'no store id (older controlplane)'],
        [of('someone', 'store-b'), 'another store'],
      ],
      'each once, though two rounds saw them',
    );
  });

  it('leaves every lease of a hostd older than holders', async () => {
    const calls: string[] = [];
    const client = {
      revokeLeases: async () => {
        calls.push('revokeLeases');
        return { revoked: [] };
      },
    };
    const clone = { taskId: 't' } as Clone;
    const reaper = createOrphanReaper({
      holders: holders('a', []),
      audit: recordingAudit(),
      logger: silentLogger,
    });
    assert.equal(await reaper.reap(client, [clone]), 0);
    assert.equal(await reaper.reap(client, [clone], { own: true }), 0);
    assert.deepEqual(calls, []);
  });
});

// Which leases a controlplane revokes on a hostd: those whose holder is gone, its own only when
// asked, unnamed ones only when no other controlplane is live; a real hostd app (fake clones).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Clone } from '@clawdie/hostd/api';
import { HostdClient } from '@clawdie/hostd/client';
import {
  type LeaseHolders,
  reapOrphanClones,
} from '../../../../controlplane/src/browser/provider/orphan-clones.js';
import type {
  AuditEvent,
  AuditLog,
  AuditRecord,
} from '../../../../controlplane/src/governance/audit/audit-log.js';
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

/** `me` and the other live instances. */
const holders = (me: string, others: string[]): LeaseHolders => ({
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

describe('reaping the clones no live controlplane holds', () => {
  it('revokes gone holders’ leases, never a live one’s, its own only when asked', async () => {
    const { client, left } = await hostWith([
      { taskId: 'gone', holder: 'crashed' },
      { taskId: 'live', holder: 'other' },
      { taskId: 'mine', holder: 'me' },
    ]);
    const audit = recordingAudit();
    const options = { holders: holders('me', ['other']), audit, logger: silentLogger };
    assert.equal(await reapOrphanClones(client, await client.listClones(), options), 1);
    assert.deepEqual(await left(), ['live', 'mine']);
    assert.deepEqual(
      audit.events.map((event) => [event.type, event.taskId, event.data?.holder]),
      [['clone-destroyed', 'gone', 'crashed']],
    );
    const own = { ...options, own: true };
    assert.equal(await reapOrphanClones(client, await client.listClones(), own), 1);
    assert.deepEqual(await left(), ['live']);
  });

  it('leaves unnamed leases while another controlplane is live, and revokes them when alone', async () => {
    const { client, left } = await hostWith([{ taskId: 'old-1' }, { taskId: 'new', holder: 'b' }]);
    const audit = recordingAudit();
    const crowd = { holders: holders('a', ['b']), audit, logger: silentLogger };
    assert.equal(await reapOrphanClones(client, await client.listClones(), crowd), 0);
    assert.deepEqual(await left(), ['new', 'old-1']);
    const alone = { ...crowd, holders: holders('a', []) };
    assert.equal(await reapOrphanClones(client, await client.listClones(), alone), 2);
    assert.deepEqual(await left(), []);
    assert.deepEqual(audit.events.map((event) => event.data?.reason).sort(), [
      'holder replica gone',
      'unnamed lease, no other controlplane live',
    ]);
  });

  it('with a hostd older than holders, revokes everything only when no other controlplane is live', async () => {
    const calls: string[] = [];
    const client = {
      revokeLeases: async () => {
        calls.push('revokeLeases');
        return { revoked: [] };
      },
      revokeAllLeases: async () => {
        calls.push('revokeAllLeases');
        return { revoked: [{ name: 'browsertask001', taskId: 't', generation: 1, leftovers: [] }] };
      },
    };
    const clone = { taskId: 't' } as Clone;
    const options = { holders: holders('a', ['b']), audit: recordingAudit(), logger: silentLogger };
    assert.equal(await reapOrphanClones(client, [clone], options), 0);
    assert.deepEqual(calls, []);
    const alone = { ...options, holders: holders('a', []) };
    assert.equal(await reapOrphanClones(client, [clone], alone), 1);
    assert.deepEqual(calls, ['revokeAllLeases']);
  });
});

// The lease reproductions with real clones (root): Chromium inside two successive Linux clones
// loads hosts outside its task's allowlist; each refusal is audited, live, to the task whose lease
// it happened under — never to the other — and a DELETE under another lease leaves a clone alive.
// Clones are host-global: startHostdControlplane holds the host lock.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type HostdControlplane,
  startHostdControlplane,
} from '../e2e/support/hostd-controlplane.js';
import { requires } from '../support/capabilities.js';
import { eventually } from './support/lease-hostd.js';

describe('leases on real clones', requires('linux-clones', 'chromium'), () => {
  let h: HostdControlplane;
  before(async () => {
    h = await startHostdControlplane({ concurrency: 2 });
  });
  after(() => h?.close());

  const refusedHosts = async (taskId: string) =>
    (await h.controlplane.audit.list({ taskId, limit: 1000 }))
      .filter((row) => row.type === 'egress-refused')
      .map((row) => String(row.data.host));

  it('audits each clone’s refusals live to its own task, never to the next holder', async () => {
    const provider = h.controlplane.source.provider;
    const visit = async (taskId: string, host: string) => {
      const lease = await provider.acquire({ taskId, allowedDomains: ['allowed.invalid'] });
      await lease.operator
        .execute([{ type: 'navigate', url: `http://${host}/` }])
        .catch(() => null);
      const live = await eventually(
        async () => (await refusedHosts(taskId)).includes(host),
        15_000,
      );
      await lease.release();
      return { name: lease.id, live };
    };
    const a = await visit('real-a', 'blocked-a.invalid');
    const b = await visit('real-b', 'blocked-b.invalid');
    assert.ok(a.live && b.live, 'each refusal was audited while its task held the clone');
    assert.notEqual(b.name, a.name, 'the second task did not get the first one’s name');
    assert.ok(
      !(await refusedHosts('real-b')).includes('blocked-a.invalid'),
      'no refusal of task a in b',
    );
    assert.ok(
      !(await refusedHosts('real-a')).includes('blocked-b.invalid'),
      'no refusal of task b in a',
    );
  });

  it('a DELETE under another lease leaves the real clone running', async () => {
    const clone = await h.manager.create({ taskId: 'real-victim', allowedDomains: [] });
    const stale = await fetch(`${h.hostd.url}/clones/${clone.name}`, {
      method: 'DELETE',
      headers: {
        authorization: `Bearer ${h.controlplane.config.hostd?.token}`,
        'clawdie-lease': 'a-stale-lease-id-0123456789',
      },
    });
    const answer = stale.status;
    assert.equal(answer, 404);
    const health = await fetch(`${clone.service.url}/health`, {
      headers: { authorization: `Bearer ${clone.service.token}` },
    });
    assert.equal(health.status, 200, 'the clone’s jail-service still answers');
    await h.manager.destroy(clone.name, clone.leaseId);
  });
});

// Reproduction (issue 12, item 7): hostd gave the next clone the lowest free index, so a name came
// back while records of its last holder (its egress refusals, its lease) were still around — the
// root of refusals read by name landing on the wrong task. A name is now reused only once every
// record of its previous holder is gone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connectThrough } from '../hostd/support/proxy-probe.js';
import { leaseHostdPerTest } from './support/lease-hostd.js';

const start = leaseHostdPerTest();

describe('clone names are not reused while records of their last holder remain', () => {
  it('hands the next clone a different name while the previous holder’s refusals are kept', async () => {
    const h = await start({});
    const first = await h.client.createClone({ taskId: 'first' });
    assert.equal(await connectThrough(first.egressProxyUrl ?? '', 'kept.test:443'), 403);
    await h.destroy(first);
    const names = new Set([first.name]);
    for (let i = 0; i < 5; i += 1) {
      const next = await h.client.createClone({ taskId: `next-${i}` });
      assert.ok(!names.has(next.name), `${next.name} was handed out again`);
      names.add(next.name);
      await h.destroy(next);
    }
    const kept = await h.raw('GET', `/clones/${first.name}/egress-refusals`, first.leaseId);
    assert.equal(kept.status, 200);
    assert.deepEqual(
      (kept.body as { refusals: { host: string }[] }).refusals.map((r) => r.host),
      ['kept.test'],
    );
  });

  it('reuses a name only after its previous holder’s records are gone', async () => {
    let now = 1_000_000;
    const h = await start({
      indexRange: { min: 1, max: 2 },
      leaseRetentionMs: 60_000,
      now: () => now,
    });
    const a = await h.client.createClone({ taskId: 'a' });
    assert.equal(await connectThrough(a.egressProxyUrl ?? '', 'a.test:443'), 403);
    await h.destroy(a);
    now += 1000;
    const b = await h.client.createClone({ taskId: 'b' });
    assert.notEqual(b.name, a.name);
    assert.equal(await connectThrough(b.egressProxyUrl ?? '', 'b.test:443'), 403);
    await h.destroy(b);

    // Both names are quarantined: the oldest holder's records go first, then its name is reused.
    const c = await h.client.createClone({ taskId: 'c' });
    assert.equal(c.name, a.name);
    const gone = await h.raw('GET', `/clones/${a.name}/egress-refusals`, a.leaseId);
    assert.equal(gone.status, 404, 'the previous holder’s records are gone');
    assert.deepEqual(
      (await h.client.egressRefusals(b)).map((r) => r.host),
      ['b.test'],
      'the other name’s holder keeps its records',
    );
    assert.ok(c.generation > b.generation && b.generation > a.generation);

    // Past the retention period, ended leases are forgotten by themselves.
    now += 60_000;
    const late = await h.raw('GET', `/clones/${b.name}/egress-refusals`, b.leaseId);
    assert.equal(late.status, 404);
  });
});

// Two controlplane replicas placing on one fleet at once, each from a stale heartbeat: the host is
// the authority on its capacity (hostd's maxLeases), so no host ever holds more leased clones than
// registered; a refused task is placed again (another host, or after a slot frees), none fails.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { HostdClient } from '@clawdie/hostd/client';
import { createHostdBrowserProvider } from '../../../controlplane/src/browser/provider/hostd-browser-provider.js';
import { createFleetBrowserProvider } from '../../../controlplane/src/fleet/fleet-browser-provider.js';
import { createHostMonitor } from '../../../controlplane/src/fleet/host-monitor.js';
import { silentLogger } from '../../support/silent-logger.js';
import { createFleetFixture, type RunningHostd } from './fleet-fixture.js';

const fleet = createFleetFixture();
after(() => fleet.close());

/** The most leased clones `hostd` held at any moment while `run` ran (sampled every ms). */
async function peakDuring(hostds: RunningHostd[], run: () => Promise<unknown>) {
  const peaks = hostds.map(() => 0);
  const sample = () =>
    hostds.forEach((hostd, i) => {
      peaks[i] = Math.max(peaks[i] ?? 0, hostd.manager.leaseCount());
    });
  const timer = setInterval(sample, 1);
  try {
    await run();
  } finally {
    clearInterval(timer);
  }
  return peaks;
}

describe('fleet capacity with several replicas', () => {
  it('never puts more clones on a capacity-2 host than 2 when two replicas place 4 tasks at once', async () => {
    const opened = fleet.openRegistry();
    const linux = { os: 'linux' };
    const a = await opened.addRunningHost({ name: 'a', labels: linux, capacity: 2 });
    const b = await opened.addRunningHost({ name: 'b', labels: linux, capacity: 2 });
    // Another holder's clone on b, seen by the one heartbeat: both replicas prefer a (0/2).
    await b.hostd.manager.create({ taskId: 'other', allowedDomains: [] });
    const monitor = createHostMonitor({
      registry: opened.registry,
      store: opened.store,
      logger: silentLogger,
      now: () => fleet.clock.now,
    });
    await monitor.beatAll();
    // From here on the heartbeat is stale: neither replica sees the other's clones.
    const replica = (holder: string) =>
      createFleetBrowserProvider({
        registry: opened.registry,
        concurrency: 4,
        placementWaitMs: 15_000,
        revokeOrphans: async () => undefined,
        providerFor: (_host, endpoint) =>
          createHostdBrowserProvider({
            client: new HostdClient({ baseUrl: endpoint.url, token: endpoint.token }),
            logger: silentLogger,
            relay: { baseUrl: endpoint.url, token: endpoint.token },
            holder,
          }),
      });
    const replicas = [replica('replica-1'), replica('replica-2')];
    const placedOn: string[] = [];
    const task = async (index: number) => {
      const provider = replicas[index % 2];
      if (!provider) throw new Error('unreachable');
      const lease = await provider.acquire({ taskId: `t${index}`, allowedDomains: [] });
      placedOn.push(lease.id.split('/')[0] ?? '');
      await delay(300);
      await lease.release();
    };
    const [peakA, peakB] = await peakDuring([a.hostd, b.hostd], async () => {
      const outcomes = await Promise.allSettled([0, 1, 2, 3].map(task));
      const failed = outcomes.filter((outcome) => outcome.status === 'rejected');
      assert.deepEqual(failed, [], 'no task fails: a refused one is placed again');
    });
    assert.ok((peakA ?? 0) <= 2, `host a held ${peakA} leased clones at once (capacity 2)`);
    assert.ok((peakB ?? 0) <= 2, `host b held ${peakB} leased clones at once (capacity 2)`);
    assert.equal(placedOn.length, 4);
    assert.equal(placedOn.filter((host) => host === 'a').length >= 2, true, placedOn.join());
    // Nothing left behind but the other holder's clone.
    assert.equal(a.hostd.manager.leaseCount(), 0);
    assert.deepEqual(
      (await b.hostd.manager.list()).map((clone) => clone.taskId),
      ['other'],
    );
  });
});

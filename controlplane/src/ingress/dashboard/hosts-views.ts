// The dashboard's Hosts page: what browsers tasks run on, from the registered jail hosts (fleet),
// from hostd when it hands out clones, or the one local jail-service otherwise.
import type { HostdClient } from '@clawdie/hostd/client';
import type { TaskBrowsers } from '../../browser/provider/task-browsers.js';
import type { HostRegistry } from '../../fleet/host-registry.js';
import type { HostsView } from './settings-pages.js';

/** One jail-service driven by this controlplane: tasks queue for it. */
export function singleJailHosts(
  jail: { url: string; startedAt: number },
  browsers: TaskBrowsers,
): () => HostsView {
  return () => ({
    clones: [
      {
        id: 'local',
        url: jail.url,
        state: 'ok',
        startedAt: jail.startedAt,
        taskId: browsers.list()[0]?.taskId ?? null,
      },
    ],
    warmPool: null,
    limits: [['Concurrent tasks', '1 (tasks queue for the one browser)']],
    source: 'One jail-service driven by this controlplane; hostd clones are not configured.',
  });
}

/** hostd's clones and warm pool as hostd reports them (an unreachable hostd says so). */
export function hostdHosts(
  client: Pick<HostdClient, 'health' | 'listClones'>,
  hostdUrl: string,
  concurrency: number,
): () => Promise<HostsView> {
  return async () => {
    try {
      const [health, clones] = await Promise.all([client.health(), client.listClones()]);
      return {
        clones: clones.map((clone) => ({
          id: clone.name,
          url: clone.service.url,
          state: `${clone.state}${clone.isolation.level === 'full' ? '' : ' (reduced isolation)'}`,
          startedAt: Date.parse(clone.createdAt) || null,
          taskId: clone.taskId === 'warm-pool' ? null : clone.taskId,
        })),
        warmPool: health.pool,
        limits: [
          ['Concurrent tasks', String(concurrency)],
          [
            'Isolation',
            `${health.isolation.level}${health.isolation.reasons.length ? `: ${health.isolation.reasons.join('; ')}` : ''}`,
          ],
          ['Driver', health.driver],
        ],
        source: `hostd at ${hostdUrl}: a fresh clone per task.`,
      };
    } catch (error) {
      return {
        clones: [],
        warmPool: null,
        limits: [['Concurrent tasks', String(concurrency)]],
        source: `hostd at ${hostdUrl} did not answer: ${(error as Error).message}`,
      };
    }
  };
}

/** Registered jail hosts with their load and health, and the clones this controlplane leases. */
export function fleetHosts(
  registry: Pick<HostRegistry, 'list'>,
  browsers: TaskBrowsers,
  concurrency: number,
): () => Promise<HostsView> {
  return async () => {
    const hosts = await registry.list();
    return {
      hosts,
      clones: browsers.list().map(({ taskId, lease }) => ({
        id: lease.id,
        url: lease.service?.url ?? '',
        state: 'ok',
        startedAt: null,
        taskId,
      })),
      warmPool: null,
      limits: [
        ['Concurrent tasks (this controlplane)', String(concurrency)],
        ['Hosts up', `${hosts.filter((host) => host.health === 'up').length} of ${hosts.length}`],
      ],
      source: `${hosts.length} registered jail host(s) (clawdie hosts list); clones below are this controlplane's.`,
    };
  };
}

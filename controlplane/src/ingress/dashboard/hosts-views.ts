// The dashboard's Hosts page: what browsers tasks run on, from hostd when it hands out clones, or
// the one local jail-service otherwise.
import type { HostdClient } from '@clawdie/hostd/client';
import type { TaskBrowsers } from '../../browser/provider/task-browsers.js';
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

// Which browser each running task holds: a read index. The task service leases browsers through
// the tracked provider and hands each lease to its run directly (the policy gate uses that
// lease); readers that are not the run (the recorder, the dashboard's live view and hosts page,
// waits on a task) look the task's browser up here.
import { createScreencastFeed, type ScreencastFeed } from '../operator/screencast-feed.js';
import type { BrowserLease, BrowserProvider } from './browser-provider.js';

export interface TaskBrowsers {
  /** The lease a task holds now; undefined before it got one and after it ended. */
  get(taskId: string): BrowserLease | undefined;
  /** Every task holding a browser, in lease order. */
  list(): { taskId: string; lease: BrowserLease }[];
}

/** Wraps `provider` so every lease is findable by its task until it is released. */
export function trackLeases(provider: BrowserProvider): {
  provider: BrowserProvider;
  browsers: TaskBrowsers;
} {
  const held = new Map<string, BrowserLease>();
  const tracked: BrowserProvider = {
    concurrency: provider.concurrency,
    async acquire(request) {
      const lease = await provider.acquire(request);
      let holder: string | null = request.taskId;
      held.set(holder, lease);
      const unhold = () => {
        if (holder !== null && held.get(holder) === lease) held.delete(holder);
      };
      return {
        ...lease,
        release() {
          unhold();
          holder = null;
          return lease.release();
        },
        rebind(taskId) {
          unhold();
          holder = taskId;
          if (taskId !== null) held.set(taskId, lease);
          lease.rebind?.(taskId);
        },
      };
    },
  };
  const browsers: TaskBrowsers = {
    get: (taskId) => held.get(taskId),
    list: () => [...held].map(([taskId, lease]) => ({ taskId, lease })),
  };
  return { provider: tracked, browsers };
}

/** The live feed of the browser a task holds now, or null when it holds none with a jail-service. */
export function screencastOf(browsers: TaskBrowsers): (taskId: string) => ScreencastFeed | null {
  return (taskId) => {
    const service = browsers.get(taskId)?.service;
    return service ? createScreencastFeed(service) : null;
  };
}

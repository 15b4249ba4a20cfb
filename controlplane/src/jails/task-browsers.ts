// Which browser each running task holds. The task service leases browsers through the tracked
// provider; everything else that acts for a task (the policy gate's screenshots and URL checks,
// the recorder, the dashboard's live view, waits on a task) looks the task's browser up here
// instead of assuming one browser for the whole controlplane.
import type { Action } from '@clawdie/jail-service/api';
import { OperatorError } from '../errors.js';
import type { BrowserOperator } from '../operator/browser-operator.js';
import { createScreencastFeed, type ScreencastFeed } from '../operator/screencast-feed.js';
import type { BrowserLease, BrowserProvider } from './browser-provider.js';

export interface TaskBrowsers {
  /** The lease a task holds now; undefined before it got one and after it ended. */
  get(taskId: string): BrowserLease | undefined;
  /** Every task holding a browser, in lease order. */
  list(): { taskId: string; lease: BrowserLease }[];
  /**
   * An operator that acts on whatever browser the task holds at call time, and fails with
   * OPERATOR_UNAVAILABLE when it holds none.
   */
  operatorFor(taskId: string): BrowserOperator;
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
      held.set(request.taskId, lease);
      return {
        ...lease,
        release() {
          if (held.get(request.taskId) === lease) held.delete(request.taskId);
          return lease.release();
        },
      };
    },
  };
  const browsers: TaskBrowsers = {
    get: (taskId) => held.get(taskId),
    list: () => [...held].map(([taskId, lease]) => ({ taskId, lease })),
    operatorFor(taskId) {
      const current = () => {
        const lease = held.get(taskId);
        if (lease) return lease.operator;
        throw new OperatorError('OPERATOR_UNAVAILABLE', `task ${taskId} holds no browser`);
      };
      return {
        screenshot: async (signal) => current().screenshot(signal),
        state: async (signal) => current().state(signal),
        execute: async (actions: Action[], signal) => current().execute(actions, signal),
      };
    },
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

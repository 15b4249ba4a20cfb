import type { Action } from '@clawdie/kit/jail-api';
import { OperatorError } from '../../errors.js';
import type { BrowserRunTaskInput } from '../../tasks/task-input.js';
import type { BrowserOperator } from '../operator/browser-operator.js';
import type { BrowserLease, BrowserProvider } from './browser-provider.js';

/**
 * Leases a browser for a task; a `desktop` task asks for one with its own X display. When none can
 * be had (hostd down, clone failed to start, or a desktop task got a browser without a display,
 * which is given back at once), the task still runs through the normal path with an operator that
 * fails every call, so it ends `error`/`OPERATOR_UNAVAILABLE` with its row and trace recorded like
 * any other ending.
 */
export async function leaseBrowser(
  provider: BrowserProvider,
  taskId: string,
  input: BrowserRunTaskInput,
  signal: AbortSignal,
): Promise<BrowserLease> {
  const desktop = input.surface === 'desktop';
  let lease: BrowserLease;
  try {
    // No domains (no policy, or a policy allowing `*`): the network layer lets any host through
    // its proxy, and the policy gate decides.
    lease = await provider.acquire({
      taskId,
      allowedDomains: input.domains ?? ['*'],
      ...(desktop ? { display: true } : {}),
      ...(input.host_labels ? { labels: input.host_labels } : {}),
      signal,
    });
  } catch (error) {
    const failure =
      error instanceof OperatorError
        ? error
        : new OperatorError(
            'OPERATOR_UNAVAILABLE',
            `no browser for the task: ${(error as Error).message}`,
            error,
          );
    return failedLease(failure);
  }
  if (!desktop || lease.display) return lease;
  await lease.release();
  return failedLease(
    new OperatorError(
      'OPERATOR_UNAVAILABLE',
      `desktop tasks need hostd with displays (CLAWDIE_HOSTD_URL, a Linux host with Xvfb): the task's browser "${lease.id}" has no X display`,
    ),
  );
}

function failedLease(failure: OperatorError): BrowserLease {
  return {
    id: 'none',
    service: null,
    display: null,
    operator: failingOperator(failure),
    release: async () => undefined,
  };
}

/** An operator whose every call fails with `error`. */
export function failingOperator(error: Error): BrowserOperator {
  const fail = async () => {
    throw error;
  };
  return {
    screenshot: fail,
    state: fail,
    landing: fail,
    execute: (_actions: Action[]) => fail(),
  };
}

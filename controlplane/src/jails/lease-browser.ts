import type { Action } from '@clawdie/jail-service/api';
import { OperatorError } from '../errors.js';
import type { BrowserOperator } from '../operator/browser-operator.js';
import type { BrowserRunTaskInput } from '../tasks/task-input.js';
import type { BrowserLease, BrowserProvider } from './browser-provider.js';

/**
 * Leases a browser for a task. When none can be had (hostd down, clone failed to start), the task
 * still runs through the normal path with an operator that fails every call, so it ends
 * `error`/`OPERATOR_UNAVAILABLE` with its row and trace recorded like any other ending.
 */
export async function leaseBrowser(
  provider: BrowserProvider,
  taskId: string,
  input: BrowserRunTaskInput,
  signal: AbortSignal,
): Promise<BrowserLease> {
  try {
    // No domains (no policy, or a policy allowing `*`): the network layer lets any host through
    // its proxy, and the policy gate decides.
    return await provider.acquire({ taskId, allowedDomains: input.domains ?? ['*'], signal });
  } catch (error) {
    const failure =
      error instanceof OperatorError
        ? error
        : new OperatorError(
            'OPERATOR_UNAVAILABLE',
            `no browser for the task: ${(error as Error).message}`,
            error,
          );
    return {
      id: 'none',
      service: null,
      operator: failingOperator(failure),
      release: async () => undefined,
    };
  }
}

/** An operator whose every call fails with `error`. */
export function failingOperator(error: Error): BrowserOperator {
  const fail = async () => {
    throw error;
  };
  return {
    screenshot: fail,
    state: fail,
    execute: (_actions: Action[]) => fail(),
  };
}

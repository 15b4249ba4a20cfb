import type { LoopEvent } from '../../agent/loop/loop-types.js';
import { loopbackPrincipal, type Principal } from '../../governance/auth/scopes.js';
import type { BrowserRunTaskInput, CompactResult } from '../../tasks/task-input.js';
import type { TaskService } from '../../tasks/task-service.js';

export interface RunTaskCommandOptions {
  /** Run under this tenant's policy (default: the loopback principal's tenant, `default`). */
  tenant?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Progress printing; must not throw. */
  onEvent?: ((event: LoopEvent) => void) | undefined;
}

/** Who `clawdie run` acts as: the local user (full scopes) under the chosen tenant. */
export function cliPrincipal(tenant?: string): Principal {
  return tenant === undefined
    ? loopbackPrincipal
    : { ...loopbackPrincipal, tenant, subject: 'cli' };
}

/**
 * `clawdie run`: admits the task on `tasks` — the platform's policed TaskService, the same the
 * API uses — for `cliPrincipal(tenant)`, then starts the plan, so the tenant's admission (denied → AppError
 * POLICY_DENIED, thrown), action gate and approvals apply and the row belongs to the tenant.
 * Aborting `signal` aborts the task. Resolves with its result; closes `tasks` in every case.
 */
export async function runTaskCommand(
  input: BrowserRunTaskInput,
  tasks: TaskService,
  options: RunTaskCommandOptions = {},
): Promise<CompactResult> {
  const { signal } = options;
  try {
    const plan = await tasks.admit(input, cliPrincipal(options.tenant));
    const { taskId, done } = await tasks.start(plan, options.onEvent);
    const abort = () => tasks.abort(taskId);
    if (signal?.aborted) abort();
    signal?.addEventListener('abort', abort, { once: true });
    try {
      return await done;
    } finally {
      signal?.removeEventListener('abort', abort);
    }
  } finally {
    await tasks.close();
  }
}

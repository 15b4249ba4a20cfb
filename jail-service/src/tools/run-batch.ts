// POST /actions: validate every action, run them in order with early exit, report the page state.

import type {
  ActionResult,
  ActionsRequest,
  ActionsResponse,
  PageState,
} from '@clawdie/kit/jail-api';
import type { Logger } from 'pino';
import { toErrorInfo } from '../errors.js';
import type { PageDriver } from '../page-driver.js';
import type { ToolRegistry } from './registry.js';
import { validateBatch } from './validate-batch.js';

export interface RunBatchDeps {
  tools: ToolRegistry;
  driver: PageDriver;
  logger: Logger;
  /** How long the batch's response waits for requests it started to end (default 2 s). */
  evidenceSettleMs?: number | undefined;
}

/**
 * A request a click started (a fetch, a form POST answered slowly) still running when the batch
 * settled is waited for this long at most before it is reported `pending`.
 */
export const EVIDENCE_SETTLE_MS = 2000;

/**
 * Runs a parsed batch. Throws (400) only when validation fails, before anything ran; an action
 * failure is a result (`status: 'error'`) and every later action is `skipped`. Must be called
 * inside `tools.exclusive`.
 */
export async function runBatch(
  request: ActionsRequest,
  deps: RunBatchDeps,
): Promise<ActionsResponse> {
  validateBatch(request.actions, deps.driver.viewport());
  const network = deps.driver.network;
  const mark = network?.mark();
  const results: ActionResult[] = [];
  let failed = false;
  for (const [index, action] of request.actions.entries()) {
    if (failed) {
      results.push({
        index,
        type: action.type,
        status: 'skipped',
        duration_ms: 0,
        navigated: false,
      });
      continue;
    }
    const started = performance.now();
    try {
      const outcome = await deps.tools.invokeAction(action, { timeoutMs: request.timeout_ms });
      results.push({
        index,
        type: action.type,
        status: 'ok',
        duration_ms: since(started),
        navigated: outcome.navigated,
      });
    } catch (error) {
      failed = true;
      const info = toErrorInfo(error);
      deps.logger.info(
        { index, type: action.type, code: info.code, message: info.message },
        'action failed',
      );
      results.push({
        index,
        type: action.type,
        status: 'error',
        duration_ms: since(started),
        navigated: false,
        error: info,
      });
    }
  }
  const state = await stateAfter(deps);
  if (!network || mark === undefined) return { results, state };
  const evidence = await network.since(mark, deps.evidenceSettleMs ?? EVIDENCE_SETTLE_MS);
  return { results, state, evidence };
}

/** The state after the batch; if even that times out, what is known without the renderer. */
async function stateAfter(deps: RunBatchDeps): Promise<PageState> {
  try {
    return await deps.tools.invoke(deps.tools.data.state, {});
  } catch (error) {
    deps.logger.warn({ error: toErrorInfo(error) }, 'page state unavailable after the batch');
    return { url: deps.driver.currentUrl(), title: '', loading: true };
  }
}

function since(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

/**
 * Maps parsed UI-TARS actions onto the jail-service `Action` union (CSS pixels) plus the
 * terminal steps the loop handles itself. Unlike the reference browser operator it implements
 * `right_single`, hover, left/right scroll at the box with an explicit amount, `open_url`,
 * `press`/`release`, and rejects unknown actions with a message the loop can feed back.
 */
import { PLANNERS } from './action-planners.js';
import type { BrowserPlanContext, BrowserPlanResult, PlannedStep } from './browser-plan-types.js';
import type { ModelAction } from './types.js';

export type {
  BrowserPlanContext,
  BrowserPlanError,
  BrowserPlanErrorCode,
  BrowserPlanResult,
  PlannedStep,
} from './browser-plan-types.js';

/** Every action name {@link toBrowserActions} accepts (aliases included). */
export const SUPPORTED_ACTION_NAMES: readonly string[] = Object.freeze(Object.keys(PLANNERS));

/**
 * Plans the browser actions for one model turn. Stops after the first terminal step (`finished`,
 * `call_user`, `error_env`), as the reference agent does. Returns the first failure as a value;
 * throws only on an invalid `context` (a bug in the caller).
 */
export function toBrowserActions(
  actions: readonly ModelAction[],
  context: BrowserPlanContext,
): BrowserPlanResult {
  assertContext(context);
  const steps: PlannedStep[] = [];
  for (const [actionIndex, action] of actions.entries()) {
    const planner = PLANNERS[action.name];
    if (planner === undefined) {
      const message = `Unsupported action '${action.name}'. Supported actions: ${SUPPORTED_ACTION_NAMES.join(', ')}.`;
      return { success: false, error: { code: 'UNSUPPORTED_ACTION', message, actionIndex } };
    }
    const outcome = planner(action, context);
    if ('code' in outcome) return { success: false, error: { ...outcome, actionIndex } };
    steps.push(outcome);
    if (outcome.kind !== 'browser') break;
  }
  return { success: true, steps };
}

function assertContext(context: BrowserPlanContext): void {
  const positive = [
    context.screenshot.width,
    context.screenshot.height,
    context.viewport.width,
    context.viewport.height,
    context.devicePixelRatio,
    context.scrollAmount,
  ];
  if (!positive.every((value) => Number.isFinite(value) && value > 0)) {
    throw new RangeError(
      'toBrowserActions: sizes, devicePixelRatio and scrollAmount must be positive',
    );
  }
  if (!Number.isInteger(context.waitMs) || context.waitMs < 0 || context.waitMs > 60_000) {
    throw new RangeError('toBrowserActions: waitMs must be an integer from 0 to 60000');
  }
}

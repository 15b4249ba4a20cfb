/** Types of the browser-action plan built by `toBrowserActions`. */
import type { Action } from '@clawdie/kit/jail-api';
import type { CoordinateContext } from './coordinates.js';
import type { ModelAction, Position } from './types.js';

/** What `toBrowserActions` needs besides the actions. */
export interface BrowserPlanContext extends CoordinateContext {
  /** Duration of `wait()`, in ms (integer, 0–60000). */
  waitMs: number;
  /** Scroll distance in CSS pixels when the model gives no `amount`. */
  scrollAmount: number;
}

/** One planned step: a browser action, or a terminal step that ends the model turn. */
export type PlannedStep =
  | {
      kind: 'browser';
      action: Action;
      modelAction: ModelAction;
      /** The (start) point in screenshot pixels, for pointer actions with a box. */
      screenPoint?: Position;
      /** Whether a point had to be clamped into the viewport (pointer actions only). */
      clamped?: boolean;
    }
  | { kind: 'finished'; content: string }
  | { kind: 'call_user'; content?: string }
  | { kind: 'error_env'; content?: string };

/** Why an action cannot be planned. */
export type BrowserPlanErrorCode = 'UNSUPPORTED_ACTION' | 'MISSING_ARGUMENT' | 'BAD_COORDINATES';

/** A planning failure; `message` is written for the model. */
export interface BrowserPlanError {
  code: BrowserPlanErrorCode;
  message: string;
  /** Index into the `actions` argument. */
  actionIndex: number;
}

/** Result of `toBrowserActions`. */
export type BrowserPlanResult =
  | { success: true; steps: PlannedStep[] }
  | { success: false; error: BrowserPlanError };

/** A planned step, or why the action cannot be planned (without its index). */
export type PlanOutcome = PlannedStep | { code: BrowserPlanErrorCode; message: string };

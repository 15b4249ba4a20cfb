// The action namespace: one handler per action the contract declares (api/actions.ts), keyed by
// its name — the mapped type `ActionHandlers` makes a missing or an undeclared handler a type
// error. Each tool is bounded and waits for a navigation only when the action caused one.
import {
  type Action,
  type ActionType,
  actionContracts,
  actionTypes,
  MAX_WAIT_MS,
} from '@clawdie/kit/jail-api';
import { sleep } from '@clawdie/kit/timing';
import type { InputOutcome, InputStep, PerformOptions } from '../page-driver.js';
import {
  dragSteps,
  enterSteps,
  keySteps,
  normalizeUrl,
  pointerSteps,
  scrollSteps,
  splitTrailingNewline,
  typeSteps,
} from './action-steps.js';
import { checkLanding } from './landing-check.js';
import {
  navigationBudget,
  type TimeoutPolicy,
  type ToolCall,
  type ToolDefinition,
} from './tool.js';

export type ActionOf<T extends ActionType> = Extract<Action, { type: T }>;

/** How an action runs: its bound and its handler (the rest is its contract). */
export interface Handler<A> {
  timeout: TimeoutPolicy;
  handle: (action: A, call: ToolCall) => Promise<InputOutcome>;
}
export type ActionHandler<T extends ActionType> = Handler<ActionOf<T>>;

/** Exactly one handler for every declared action. */
export type ActionHandlers = { [T in ActionType]: ActionHandler<T> };

/** Extra bound of the navigation tools over their own navigation timeout. */
const NAVIGATION_SLACK_MS = 1000;

/** Input through the PageDriver, after the landing re-check; a secret as one insertion. */
function input<A extends Action>(
  settle: PerformOptions['settle'],
  toSteps: (action: A) => InputStep[],
): Handler<A> {
  return {
    timeout: { base: 'action' },
    handle: async (action, call) => {
      const { driver } = call;
      // Immediately before the input: nothing else runs on the page in between (exclusive).
      await checkLanding(driver, action);
      call.signal.throwIfAborted();
      const perform = (steps: InputStep[]) =>
        driver.perform(steps, {
          signal: call.signal,
          settle,
          navigationTimeoutMs: navigationBudget(call),
        });
      const typed: Action = action;
      if (typed.type !== 'type' || !typed.secret) return perform(toSteps(action));
      // A secret goes in as one insertion into the guarded field; only a trailing Enter is keyed.
      const { text, enter } = splitTrailingNewline(typed.text);
      if (text !== '') await driver.typeSecret(text, typed.secret);
      return enter ? perform(enterSteps()) : { navigated: false };
    },
  };
}

function navigation<A>(handle: Handler<A>['handle']): Handler<A> {
  return { timeout: { base: 'navigation', extraMs: NAVIGATION_SLACK_MS }, handle };
}

const goTo = (action: { url: string }, call: ToolCall) =>
  call.driver.navigate(normalizeUrl(action.url), navigationBudget(call));

export const actionHandlers: ActionHandlers = {
  click: input('task', pointerSteps),
  left_double: input('task', pointerSteps),
  right_single: input('task', pointerSteps),
  hover: input('task', pointerSteps),
  drag: input('frame', dragSteps),
  hotkey: input('task', keySteps),
  type: input('task', typeSteps),
  scroll: input('frame', scrollSteps),
  navigate: navigation(goTo),
  open_url: navigation(goTo),
  navigate_back: navigation((_action, call) => call.driver.goBack(navigationBudget(call))),
  wait: {
    timeout: { base: 'action', extraMs: MAX_WAIT_MS },
    handle: async (action, call) => {
      await sleep(action.ms, call.signal);
      return { navigated: false };
    },
  },
  press: input('task', keySteps),
  keydown: input('task', keySteps),
  keyup: input('task', keySteps),
};

export type ActionTools = { [T in ActionType]: ToolDefinition<ActionOf<T>, InputOutcome> };

/**
 * Each declared action joined with its handler, in declaration order. The entries are built by
 * name from two records that ActionHandlers keys alike, so the pairing holds by construction.
 */
export const actionTools = Object.fromEntries(
  actionTypes.map((type) => {
    const { name, description, schema } = actionContracts[type];
    const { timeout, handle } = actionHandlers[type];
    return [type, { name, namespace: 'action', description, inputSchema: schema, timeout, handle }];
  }),
) as unknown as ActionTools;

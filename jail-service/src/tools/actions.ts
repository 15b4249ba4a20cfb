// The action namespace: one tool per action type of the contract union, each bounded and each
// waiting for a navigation only when the action caused one.
import type { z } from 'zod';
import {
  type Action,
  type ActionType,
  clickActionSchema,
  dragActionSchema,
  hotkeyActionSchema,
  hoverActionSchema,
  keydownActionSchema,
  keyupActionSchema,
  leftDoubleActionSchema,
  navigateActionSchema,
  navigateBackActionSchema,
  openUrlActionSchema,
  pressActionSchema,
  rightSingleActionSchema,
  scrollActionSchema,
  typeActionSchema,
  waitActionSchema,
} from '../api/actions.js';
import type { InputOutcome, InputStep, PageDriver, PerformOptions } from '../page-driver.js';
import { sleep } from '../timing/sleep.js';
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
import { navigationBudget, type Tool, type ToolContext } from './tool.js';

export type ActionOf<T extends ActionType> = Extract<Action, { type: T }>;
export type ActionTools = { [T in ActionType]: Tool<ActionOf<T>, InputOutcome> };

export interface ActionToolOptions {
  driver: PageDriver;
  actionTimeoutMs: number;
  navigationTimeoutMs: number;
}

/** Extra bound of the navigation tools over their own navigation timeout. */
const NAVIGATION_SLACK_MS = 1000;
const MAX_WAIT_MS = 60_000;

/** Builds every action tool over one page. */
export function createActionTools(options: ActionToolOptions): ActionTools {
  const { driver, actionTimeoutMs, navigationTimeoutMs } = options;

  const input = <T extends ActionType>(
    schema: z.ZodType<ActionOf<T>>,
    name: T,
    description: string,
    settle: PerformOptions['settle'],
    toSteps: (action: ActionOf<T>) => InputStep[],
  ): Tool<ActionOf<T>, InputOutcome> => ({
    name,
    namespace: 'action',
    description,
    timeoutMs: actionTimeoutMs,
    inputSchema: schema,
    run: async (action, context) => {
      // Immediately before the input: nothing else runs on the page in between (exclusive).
      await checkLanding(driver, action);
      context.signal.throwIfAborted();
      const perform = (steps: InputStep[]) =>
        driver.perform(steps, {
          signal: context.signal,
          settle,
          navigationTimeoutMs: navigationBudget(context, navigationTimeoutMs),
        });
      const typed = action as Action;
      if (typed.type !== 'type' || !typed.secret) return perform(toSteps(action));
      // A secret goes in as one insertion into the guarded field; only a trailing Enter is keyed.
      const { text, enter } = splitTrailingNewline(typed.text);
      if (text !== '') await driver.typeSecret(text, typed.secret);
      return enter ? perform(enterSteps()) : { navigated: false };
    },
  });

  const navigation = <T extends 'navigate' | 'open_url' | 'navigate_back'>(
    schema: z.ZodType<ActionOf<T>>,
    name: T,
    description: string,
    run: (action: ActionOf<T>, context: ToolContext) => Promise<InputOutcome>,
  ): Tool<ActionOf<T>, InputOutcome> => ({
    name,
    namespace: 'action',
    description,
    timeoutMs: navigationTimeoutMs + NAVIGATION_SLACK_MS,
    inputSchema: schema,
    run,
  });

  const goTo = (action: { url: string }, context: ToolContext) =>
    driver.navigate(normalizeUrl(action.url), navigationBudget(context, navigationTimeoutMs));

  return {
    click: input(
      clickActionSchema,
      'click',
      'Left click at (x, y) in CSS pixels.',
      'task',
      pointerSteps,
    ),
    left_double: input(
      leftDoubleActionSchema,
      'left_double',
      'Double click at (x, y).',
      'task',
      pointerSteps,
    ),
    right_single: input(
      rightSingleActionSchema,
      'right_single',
      'Right click at (x, y).',
      'task',
      pointerSteps,
    ),
    hover: input(hoverActionSchema, 'hover', 'Move the mouse to (x, y).', 'task', pointerSteps),
    drag: input(
      dragActionSchema,
      'drag',
      'Press at `from`, move to `to` in small steps, release.',
      'frame',
      dragSteps,
    ),
    scroll: input(
      scrollActionSchema,
      'scroll',
      'Wheel-scroll the element under (x, y) by `amount` CSS pixels (default 500).',
      'frame',
      scrollSteps,
    ),
    type: input(
      typeActionSchema,
      'type',
      'Type text into the focused element; one trailing newline presses Enter.',
      'task',
      typeSteps,
    ),
    hotkey: input(
      hotkeyActionSchema,
      'hotkey',
      'Press a chord: keys down in order, up in reverse (e.g. ["ctrl", "a"]).',
      'task',
      keySteps,
    ),
    press: input(pressActionSchema, 'press', 'Tap one key (down, then up).', 'task', keySteps),
    keydown: input(
      keydownActionSchema,
      'keydown',
      'Hold a key down until a matching keyup.',
      'task',
      keySteps,
    ),
    keyup: input(keyupActionSchema, 'keyup', 'Release a held key.', 'task', keySteps),
    navigate: navigation(
      navigateActionSchema,
      'navigate',
      'Load a URL (https:// added when there is no scheme) and wait for `load`.',
      goTo,
    ),
    open_url: navigation(openUrlActionSchema, 'open_url', 'Same as navigate.', goTo),
    navigate_back: navigation(
      navigateBackActionSchema,
      'navigate_back',
      'Go back one history entry and wait for `load` (no history is not an error).',
      (_action, context) => driver.goBack(navigationBudget(context, navigationTimeoutMs)),
    ),
    wait: {
      name: 'wait',
      namespace: 'action',
      description: 'Wait `ms` milliseconds (at most 60000).',
      timeoutMs: MAX_WAIT_MS + actionTimeoutMs,
      inputSchema: waitActionSchema,
      run: async (action, context) => {
        await sleep(action.ms, context.signal);
        return { navigated: false };
      },
    },
  };
}

/**
 * One planner per UI-TARS action name: validates the arguments and builds the jail-service action
 * (CSS pixels) or terminal step.
 */
import type { Action } from '@clawdie/kit/jail-api';
import type { BrowserPlanContext, PlannedStep, PlanOutcome } from './browser-plan-types.js';
import { type MappedPoint, mapModelPoint } from './coordinates.js';
import type { ModelAction, Position } from './types.js';

type Planner = (action: ModelAction, context: BrowserPlanContext) => PlanOutcome;
type Failure = Exclude<PlanOutcome, PlannedStep>;

const DIRECTIONS = ['up', 'down', 'left', 'right'] as const;
const MAX_SCROLL_AMOUNT = 100_000;
const MAX_KEY_LENGTH = 32;

const pointer =
  (type: 'click' | 'left_double' | 'right_single' | 'hover'): Planner =>
  (action, context) => {
    const at = requirePoint(action, 'start_box', context);
    if ('code' in at) return at;
    const { x, y } = at.css;
    return browser({ type, x, y }, action, at.screenshot, at.clamped);
  };

const drag: Planner = (action, context) => {
  const from = requirePoint(action, 'start_box', context);
  if ('code' in from) return from;
  const to = requirePoint(action, 'end_box', context);
  if ('code' in to) return to;
  return browser(
    { type: 'drag', from: from.css, to: to.css },
    action,
    from.screenshot,
    from.clamped || to.clamped,
  );
};

const hotkey: Planner = (action) => {
  const keys = (action.args.key ?? action.args.hotkey ?? '')
    .toLowerCase()
    .split(/[\s+]+/)
    .filter((key) => key !== '');
  if (keys.length === 0) return missing(`${action.name} needs key='…', e.g. key='ctrl c'.`);
  if (keys.length > 4 || keys.some((key) => key.length > MAX_KEY_LENGTH)) {
    return missing(
      `${action.name} takes 1 to 4 keys separated by spaces, e.g. key='ctrl shift t'.`,
    );
  }
  return browser({ type: 'hotkey', keys }, action);
};

const singleKey =
  (type: 'keydown' | 'keyup'): Planner =>
  (action) => {
    const key = (action.args.key ?? '').trim().toLowerCase();
    if (key === '' || /[\s+]/.test(key) || key.length > MAX_KEY_LENGTH) {
      return missing(`${action.name} needs exactly one key, e.g. key='ctrl'.`);
    }
    return browser({ type, key }, action);
  };

const typeText: Planner = (action) => {
  const text = action.args.content ?? action.args.text;
  if (text === undefined) return missing(`${action.name} needs content='…'.`);
  return browser({ type: 'type', text }, action);
};

const scroll: Planner = (action, context) => {
  const direction = DIRECTIONS.find((name) => name === action.args.direction?.trim().toLowerCase());
  if (direction === undefined) {
    return missing(`${action.name} needs direction='up', 'down', 'left' or 'right'.`);
  }
  const amount = scrollDistance(action, direction, context);
  if (!Number.isFinite(amount) || amount <= 0) {
    return missing(`${action.name} amount must be a positive number of pixels.`);
  }
  const scrollAmount = Math.min(amount, MAX_SCROLL_AMOUNT);
  const hasBox = action.start !== undefined || (action.args.start_box ?? '').trim() !== '';
  if (!hasBox) {
    const { width, height } = context.viewport;
    return browser(
      { type: 'scroll', x: width / 2, y: height / 2, direction, amount: scrollAmount },
      action,
    );
  }
  const at = requirePoint(action, 'start_box', context);
  if ('code' in at) return at;
  const { x, y } = at.css;
  return browser(
    { type: 'scroll', x, y, direction, amount: scrollAmount },
    action,
    at.screenshot,
    at.clamped,
  );
};

/**
 * CSS px to scroll: `amount` (px), or `screen_fraction` (a share of the viewport along the scroll
 * axis, for a profile that cannot see the CSS viewport), else the configured amount.
 */
function scrollDistance(
  action: ModelAction,
  direction: (typeof DIRECTIONS)[number],
  context: BrowserPlanContext,
): number {
  const { amount, screen_fraction: fraction } = action.args;
  if (amount !== undefined) return Number(amount.trim());
  if (fraction === undefined) return context.scrollAmount;
  const axis =
    direction === 'up' || direction === 'down' ? context.viewport.height : context.viewport.width;
  return Number(fraction.trim()) * axis;
}

const navigate: Planner = (action) => {
  const url = (action.args.url ?? action.args.content ?? '').trim();
  if (url === '') return missing(`${action.name} needs content='<url>'.`);
  return browser({ type: 'navigate', url }, action);
};

/** Planner per model action name, aliases included. */
export const PLANNERS: Readonly<Record<string, Planner>> = {
  click: pointer('click'),
  left_single: pointer('click'),
  left_click: pointer('click'),
  left_double: pointer('left_double'),
  double_click: pointer('left_double'),
  right_single: pointer('right_single'),
  right_click: pointer('right_single'),
  hover: pointer('hover'),
  mouse_move: pointer('hover'),
  drag,
  left_click_drag: drag,
  select: drag,
  hotkey,
  type: typeText,
  scroll,
  navigate,
  open_url: navigate,
  navigate_back: (action) => browser({ type: 'navigate_back' }, action),
  wait: (action, context) => browser({ type: 'wait', ms: context.waitMs }, action),
  // A profile's "look again" (a hosted API's `screenshot`): no delay, the next step's screenshot.
  screenshot: (action) => browser({ type: 'wait', ms: 0 }, action),
  press: singleKey('keydown'),
  release: singleKey('keyup'),
  finished: (action) => ({ kind: 'finished', content: action.args.content ?? '' }),
  call_user: (action) => withContent('call_user', action),
  error_env: (action) => withContent('error_env', action),
};

function requirePoint(
  action: ModelAction,
  key: 'start_box' | 'end_box',
  context: BrowserPlanContext,
): MappedPoint | Failure {
  const point = key === 'start_box' ? action.start : action.end;
  const raw = action.args[key];
  if (point === undefined) {
    if (raw === undefined || raw.trim() === '') return missing(`${action.name} needs ${key}.`);
    return badCoordinates(
      `${action.name} ${key}='${raw}' is not a point (x,y) or a box (x1,y1,x2,y2).`,
    );
  }
  const mapped = mapModelPoint(point, context);
  if (mapped === null) {
    return badCoordinates(
      `${action.name} ${key} (${point.x},${point.y}) lies outside the screenshot.`,
    );
  }
  return mapped;
}

function browser(
  action: Action,
  modelAction: ModelAction,
  screenPoint?: Position,
  clamped?: boolean,
): PlannedStep {
  const step: PlannedStep = { kind: 'browser', action, modelAction };
  if (screenPoint !== undefined) step.screenPoint = screenPoint;
  if (clamped !== undefined) step.clamped = clamped;
  return step;
}

function withContent(kind: 'call_user' | 'error_env', action: ModelAction): PlannedStep {
  const content = action.args.content;
  return content === undefined ? { kind } : { kind, content };
}

function missing(message: string): Failure {
  return { code: 'MISSING_ARGUMENT', message };
}

function badCoordinates(message: string): Failure {
  return { code: 'BAD_COORDINATES', message };
}

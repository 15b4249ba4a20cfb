import type { Action } from '@clawdie/kit/jail-api';
import type { LoopEvent } from '../agent/loop/loop-types.js';

type Executed = Extract<LoopEvent, { type: 'actions-executed' }>['executed'][number];

const point = (x: number, y: number) => `(${Math.round(x)}, ${Math.round(y)})`;

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;

/** One browser action in a few words: `click (640, 400)`, `type "demo"`, `press Enter`. */
export function describeAction(action: Action): string {
  switch (action.type) {
    case 'click':
    case 'left_double':
    case 'right_single':
    case 'hover':
      return `${action.type} ${point(action.x, action.y)}`;
    case 'scroll':
      return `scroll ${action.direction} ${point(action.x, action.y)}`;
    case 'drag':
      return `drag ${point(action.from.x, action.from.y)} → ${point(action.to.x, action.to.y)}`;
    case 'type':
      return `type ${JSON.stringify(clip(action.text, 24))}`;
    case 'hotkey':
      return `hotkey ${action.keys.join('+')}`;
    case 'press':
    case 'keydown':
    case 'keyup':
      return `${action.type} ${action.key}`;
    case 'navigate':
    case 'open_url':
      return `${action.type} ${clip(action.url, 60)}`;
    case 'wait':
      return `wait ${action.ms} ms`;
    case 'navigate_back':
      return 'navigate_back';
  }
}

/** An executed action in a few words, marked when it did not succeed. */
export function describeExecuted({ planned, result }: Executed): string {
  return result.status === 'ok'
    ? describeAction(planned.action)
    : `${describeAction(planned.action)} [${result.status}]`;
}

// What the policy decides an action on (issue 20): where it lands, not the page the reply was
// written against. A click whose link or form leaves the frame's origin, posts a form, opens a
// window or goes back in history IS a navigation; host rules see every frame the target sits in.
import {
  type Action,
  actionContracts,
  type LandingDestination,
  type LandingExpect,
  type LandingTarget,
  landingExpectSchema,
} from '@clawdie/kit/jail-api';
import { webOriginOf } from './domain-match.js';

/** An action's landing as the loop hands it to the gate (`BrowserOperator.landing`). */
export interface ActionLanding {
  /** The active page when the landing was taken (null: not known yet; the gate may ask). */
  url: string | null;
  /** Its document's identity ('' or null: the surface has none, e.g. a desktop). */
  documentId: string | null;
  /** Frames, element and destination; null when the action lands nowhere or it is unknown. */
  target: LandingTarget | null;
}

/** Actions that act on something under a point or on the focus: they get a landing call. */
export function needsLanding(action: Action): boolean {
  switch (action.type) {
    case 'click':
    case 'left_double':
    case 'right_single':
    case 'drag':
    case 'type':
    case 'press':
    case 'hotkey':
    case 'keydown':
    case 'keyup':
    case 'navigate_back':
      return true;
    default:
      return false;
  }
}

const enterKeys = new Set(['enter', 'return', 'numpadenter']);
const spaceKeys = new Set(['space', 'spacebar']);

/** The key names of one key entry, lower case: a chord written as one string ("ctrl+enter") too. */
function keyParts(key: string): string[] {
  const trimmed = key.trim().toLowerCase();
  return trimmed === '+' ? ['+'] : trimmed.split(/\s+|(?<=.)\+(?=.)/).filter(Boolean);
}

/**
 * Whether running the action activates its target's destination (follows the link, submits).
 * The input runner presses Enter for every `\r` and `\n` a `type` holds, anywhere in it; Space
 * clicks a focused button (on its keyup, so a `keyup` counts as much as a `keydown`).
 */
function activates(action: Action, target: LandingTarget | null): boolean {
  // Space in a text field types a space; on anything else (a button) it clicks.
  const spaceClicks = target?.element?.field === 'other';
  const keyActivates = (key: string) =>
    keyParts(key).some((part) => enterKeys.has(part) || (spaceClicks && spaceKeys.has(part)));
  switch (action.type) {
    case 'click':
    case 'left_double':
    case 'navigate_back':
      return true;
    case 'type':
      return /[\r\n]/.test(action.text) || (spaceClicks && action.text.includes(' '));
    case 'press':
    case 'keydown':
    case 'keyup':
      return keyActivates(action.key);
    case 'hotkey':
      return action.keys.some(keyActivates);
    default:
      return false;
  }
}

function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * Where the action goes as a navigation for the policy, or null: `navigate`/`open_url` their
 * URL; an activated destination that is history, a form post, a new window, or another origin
 * than the target's frame or the top page.
 */
export function navigationOf(action: Action, target: LandingTarget | null): string | null {
  if (action.type === 'navigate' || action.type === 'open_url') return action.url;
  const destination: LandingDestination | null | undefined = target?.destination;
  if (!destination || !activates(action, target)) return null;
  if (destination.kind === 'history' || destination.new_window) return destination.url;
  if (destination.kind === 'form' && destination.method.toUpperCase() !== 'GET')
    return destination.url;
  const to = originOf(destination.url);
  const frames = target?.frames ?? [];
  const here = [frames[0]?.origin, frames.at(-1)?.origin];
  return to !== null && here.every((origin) => origin === to) ? null : destination.url;
}

/**
 * The http(s) origins of every frame the target sits in, top first: by origin, and by URL too (a
 * sandboxed frame's origin is opaque, its URL still names the host and port that served it).
 */
export function frameOrigins(target: LandingTarget | null, pageUrl: string | null): string[] {
  const frames = target?.frames ?? (pageUrl ? [{ url: pageUrl, origin: pageUrl }] : []);
  const origins = frames.flatMap((frame) => [webOriginOf(frame.origin), webOriginOf(frame.url)]);
  return [...new Set(origins.filter((origin): origin is string => origin !== null))];
}

/**
 * The jail-service's re-check of this landing right before input (`expect`), or null when the
 * action has none to pin (no target, no document identity, or an action without `expect`).
 * `invalid` when the landing cannot be expressed within the contract's bounds.
 */
export function expectOf(action: Action, landing: ActionLanding): LandingExpect | null | 'invalid' {
  if (!actionContracts[action.type].takesExpect) return null;
  if (!landing.target || !landing.documentId) return null;
  const parsed = landingExpectSchema.safeParse({
    document_id: landing.documentId,
    origins: landing.target.frames.map((frame) => frame.origin),
    destination: landing.target.destination?.url ?? null,
  });
  return parsed.success ? parsed.data : 'invalid';
}

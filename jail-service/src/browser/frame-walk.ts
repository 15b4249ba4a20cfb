// Adapter: walks from a tab's top document down to what a point or the keyboard reaches, across
// frames of other origins, including out-of-process ones (site isolation: their documents are not
// reachable from the parent's JavaScript). Readable frames are walked in one page-side call
// (landing-script.ts); at a frame it cannot read, the frame element's CDP description names its
// document: in the same process (`contentDocument`), or in another one (`frameId` → that frame's
// own CDP session), where the walk continues with the point offset by the frame's content box.

import type { LandingDestination, LandingElement, LandingFrame } from '@clawdie/kit/jail-api';
import type { CDPSession, Frame, Protocol } from 'puppeteer-core';
import { WALK_FUNCTION } from './landing-script.js';
import type { Tab } from './page-tabs.js';

/** Deepest chain of frames followed; deeper pages report the frame element they stop at. */
const MAX_DEPTH = 32;

/** A remote object in one CDP session. */
export interface RemoteHandle {
  session: CDPSession;
  objectId: string;
}

export interface WalkResult {
  frames: LandingFrame[];
  element: LandingElement | null;
  destination: LandingDestination | null;
  /** The frame elements the walk crossed that their parent could not read, top first. */
  barriers: RemoteHandle[];
  /** The document the target is in (for a by-reference call on the target). */
  document: RemoteHandle;
  /** The point in that document's coordinates (pointer walks). */
  x: number;
  y: number;
}

interface WalkInfo {
  frames: LandingFrame[];
  barrier: boolean;
  x: number;
  y: number;
  /** At a barrier: the URL its owner element names (`src`, an object's `data`), or ''. */
  owner?: string;
  element?: LandingElement | null;
  destination?: LandingDestination | null;
}

export type WalkMode = 'point' | 'focus';

/**
 * Walks `tab` for `mode` at (x, y). Objects are created in `group` on every session touched; the
 * caller releases it (`releaseGroup`) unless it keeps the group (a masked field).
 */
export async function walkFrames(
  tab: Tab,
  mode: WalkMode,
  point: { x: number; y: number },
  group: string,
  sessions: Set<CDPSession>,
): Promise<WalkResult> {
  let session = tab.session;
  sessions.add(session);
  let document = await isolatedDocument(session, frameIdOf(tab.page.mainFrame()), group);
  let { x, y } = point;
  const frames: LandingFrame[] = [];
  const barriers: RemoteHandle[] = [];
  for (let depth = 0; ; depth++) {
    // Both at once: the description, and the element reached (needed only at a barrier).
    const [info, reached] = await Promise.all([
      call<WalkInfo>(session, document, [mode, x, y, false], group, true),
      call<string | null>(session, document, [mode, x, y, true], group, false),
    ]);
    frames.push(...info.frames);
    const here = { session, objectId: document };
    if (!info.barrier || !reached) {
      const element = info.element ?? null;
      return {
        frames,
        element,
        destination: info.destination ?? null,
        barriers,
        document: here,
        x,
        y,
      };
    }
    x = info.x;
    y = info.y;
    barriers.push({ session, objectId: reached });
    const { node } = await session.send('DOM.describeNode', { objectId: reached });
    const frame = node.frameId && depth < MAX_DEPTH ? frameOf(tab, node.frameId) : null;
    if (!frame) {
      // A frame not entered still counts as its own origin (from its owner's URL), never as its
      // parent's: a click on a payment page in an <object> is a click on the payment host.
      frames.push(unreadFrame(info.owner ?? ''));
      const element = {
        tag: node.localName || 'iframe',
        input_type: null,
        autocomplete: null,
        field: 'other' as const,
      };
      return {
        frames,
        element,
        destination: null,
        barriers: barriers.slice(0, -1),
        document: here,
        x,
        y,
      };
    }
    // The frame's own session and document (in the walk's own world), in this or another process.
    session = internals(frame).client;
    sessions.add(session);
    document = await isolatedDocument(session, node.frameId as string, group);
  }
}

function unreadFrame(url: string): LandingFrame {
  try {
    return { url, origin: new URL(url).origin };
  } catch {
    return { url: url || 'about:blank', origin: 'null' };
  }
}

/** Calls WALK_FUNCTION on the document; by value, or the element reached by reference. */
async function call<T>(
  session: CDPSession,
  objectId: string,
  args: unknown[],
  group: string,
  byValue: boolean,
): Promise<T> {
  const reply = await session.send('Runtime.callFunctionOn', {
    functionDeclaration: WALK_FUNCTION,
    objectId,
    arguments: args.map((value) => ({ value })),
    returnByValue: byValue,
    objectGroup: group,
  });
  return unwrap<T>(reply, byValue);
}

export function unwrap<T>(reply: Protocol.Runtime.CallFunctionOnResponse, byValue: boolean): T {
  if (reply.exceptionDetails) {
    const details = reply.exceptionDetails;
    throw new Error(`page script failed: ${details.exception?.description ?? details.text}`);
  }
  if (byValue) return reply.result.value as T;
  if (!reply.result.objectId) return null as T;
  return reply.result.objectId as T;
}

/**
 * The walk's own JavaScript world in every frame: the page's scripts share the DOM with it but
 * not its prototypes or window properties, so a page that redefines `window.origin`,
 * `Document.prototype.URL` or `elementFromPoint` cannot change what the walk reads (nor what the
 * secret insertion and the mask boxes, which run on the walk's handles, do). Chromium keeps one
 * world per name and frame, so asking again is cheap.
 */
const WALK_WORLD = 'clawdie-landing';

/** `frameId`'s document in the walk's world, as an object of `group` in `session`. */
async function isolatedDocument(
  session: CDPSession,
  frameId: string,
  group: string,
): Promise<string> {
  const { executionContextId } = await session.send('Page.createIsolatedWorld', {
    frameId,
    worldName: WALK_WORLD,
  });
  const reply = await session.send('Runtime.evaluate', {
    expression: 'document',
    contextId: executionContextId,
    objectGroup: group,
  });
  if (!reply.result.objectId) throw new Error('the frame has no document');
  return reply.result.objectId;
}

function frameIdOf(frame: Frame): string {
  return internals(frame)._id;
}

/**
 * The frame `frameId` of `tab`. Puppeteer does not expose a frame's id or CDP session (an
 * out-of-process frame's own target) publicly; both are read here only.
 */
function frameOf(tab: Tab, frameId: string): Frame | null {
  return tab.page.frames().find((candidate) => internals(candidate)._id === frameId) ?? null;
}

function internals(frame: Frame): { _id: string; client: CDPSession } {
  return frame as unknown as { _id: string; client: CDPSession };
}

/** The CDP session of `frame`'s target: the page's, or an out-of-process frame's own. */
export function frameSession(frame: Frame): CDPSession {
  return internals(frame).client;
}

/** Releases `group` on every session; never throws. */
export async function releaseGroup(sessions: Iterable<CDPSession>, group: string): Promise<void> {
  await Promise.all(
    [...sessions].map((session) =>
      session.send('Runtime.releaseObjectGroup', { objectGroup: group }).catch(() => undefined),
    ),
  );
}

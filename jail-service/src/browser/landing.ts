// Adapter: POST /landing over CDP — where one action would land on the active tab now.
import { randomUUID } from 'node:crypto';
import {
  type Action,
  actionContracts,
  actionPoints,
  type LandingResponse,
  type LandingTarget,
} from '@clawdie/kit/jail-api';
import type { CDPSession } from 'puppeteer-core';
import { releaseGroup, type WalkMode, type WalkResult, walkFrames } from './frame-walk.js';
import type { Tab } from './page-tabs.js';

/** Identity of the tab's current document: its target id and the main frame's loader id. */
export async function documentId(tab: Tab): Promise<string> {
  const { frameTree } = await tab.session.send('Page.getFrameTree');
  return `${tab.targetId}.${frameTree.frame.loaderId}`;
}

/** The walk `action` needs (its declared `lands`): its last point, the focus, or none. */
export function walkOf(action: Action): { mode: WalkMode; x: number; y: number } | null {
  const lands = actionContracts[action.type].lands;
  if (lands === 'focus') return { mode: 'focus', x: 0, y: 0 };
  const point = lands === 'point' ? actionPoints(action).at(-1) : undefined;
  return point ? { mode: 'point', ...point } : null;
}

/** Runs one walk and releases its objects. */
async function landOnce(tab: Tab, mode: WalkMode, x: number, y: number): Promise<LandingTarget> {
  const group = `clawdie-landing-${randomUUID()}`;
  const sessions = new Set<CDPSession>();
  try {
    return toTarget(await walkFrames(tab, mode, { x, y }, group, sessions));
  } finally {
    void releaseGroup(sessions, group);
  }
}

function toTarget(walk: WalkResult): LandingTarget {
  return { frames: walk.frames, element: walk.element, destination: walk.destination };
}

/** Where `action` lands on `tab` now (see landingResponseSchema). */
export async function landingOf(tab: Tab, action: Action): Promise<LandingResponse> {
  const url = tab.page.url();
  const documentIdNow = documentId(tab);
  const base = { url, document_id: '', target: null, source: null } as LandingResponse;
  if (actionContracts[action.type].lands === 'history') {
    const [id, history] = await Promise.all([
      documentIdNow,
      tab.session.send('Page.getNavigationHistory'),
    ]);
    const entry = history.entries[history.currentIndex - 1];
    const target: LandingTarget | null = entry
      ? {
          frames: [{ url, origin: originOf(url) }],
          element: null,
          destination: { kind: 'history', url: entry.url, method: 'GET', new_window: false },
        }
      : null;
    return { ...base, document_id: id, target };
  }
  const walk = walkOf(action);
  if (!walk) return { ...base, document_id: await documentIdNow };
  const [id, target, source] = await Promise.all([
    documentIdNow,
    landOnce(tab, walk.mode, walk.x, walk.y),
    'from' in action ? landOnce(tab, 'point', action.from.x, action.from.y) : null,
  ]);
  return { url, document_id: id, target, source };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
}

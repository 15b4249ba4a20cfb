// Adapter: a masked field's box on screen, from CDP (docs/security.md, "Secrets"). Chromium's quads
// of the field carry every CSS transform of the field and of its ancestors, across the frames of
// its session (one renderer's local root); an out-of-process frame's quads are in that frame's own
// viewport, so they are carried into its parent through the frame element's content quad (an
// affine map: a transformed frame is drawn as a parallelogram). What cannot be proven static
// fails closed: a running animation or transition on the field, an ancestor or a frame element
// masks the whole image.

import type { Protocol } from 'puppeteer-core';
import { type RemoteHandle, unwrap } from './frame-walk.js';
import { BOX_FUNCTION } from './landing-script.js';

/** A rectangle in CSS pixels of the tab's viewport. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
  /** Which masked field (to tell a field that moved between two reads). */
  field?: number;
}

interface LevelInfo {
  rendered: boolean;
  moving: boolean;
  /** The viewport of the topmost frame the level's realm can read. */
  width: number;
  height: number;
}

interface Point {
  x: number;
  y: number;
}

/** CSS pixels added around the box (antialiased edges of a rotated field). */
const MARGIN = 1;

const EMPTY: Box = { x: 0, y: 0, width: 0, height: 0 };

/**
 * The box of `levels[0]` (the field; then each frame element it is drawn in that its parent
 * cannot read, innermost first) in the top-level viewport; `all` when it may move (an animation);
 * zero-sized when not drawn. Rejects with the CDP error when a level cannot be read.
 */
export async function fieldBox(levels: readonly RemoteHandle[]): Promise<Box | 'all'> {
  const [field] = levels;
  if (!field) throw new Error('a masked field has no element');
  const crossings = levels.map((level, index) => {
    const inner = levels[index - 1];
    return inner && inner.session !== level.session ? settle(crossing(level, inner)) : null;
  });
  const [infos, own, owners] = await Promise.all([
    Promise.all(levels.map(describe)),
    settle(field.session.send('DOM.getContentQuads', { objectId: field.objectId })),
    Promise.all(crossings),
  ]);
  if (infos.some((info) => info.moving)) return 'all';
  if (infos.some((info) => !info.rendered)) return EMPTY;
  let points = quadsPoints(outcome(own).quads);
  for (const [index, owner] of owners.entries()) {
    const inner = infos[index - 1];
    const content = owner && outcome(owner);
    if (!content || !inner) continue;
    points = intoParent(points, content, inner);
    if (points.length === 0) return EMPTY;
  }
  return boundingBox(points, MARGIN);
}

async function describe(level: RemoteHandle): Promise<LevelInfo> {
  return unwrap<LevelInfo>(
    await level.session.send('Runtime.callFunctionOn', {
      functionDeclaration: BOX_FUNCTION,
      objectId: level.objectId,
      returnByValue: true,
    }),
    true,
  );
}

/**
 * The content quad of the frame element `owner` when the frame it shows is the local root of
 * `inner`'s session (out of process: `inner`'s quads are in that frame's own viewport); null when
 * the frame is in its parent's renderer (its quads already are in the parent's coordinates, even
 * though the walk reached it through another session object).
 */
async function crossing(
  owner: RemoteHandle,
  inner: RemoteHandle,
): Promise<Protocol.DOM.Quad | null> {
  const [{ node }, { frameTree }] = await Promise.all([
    owner.session.send('DOM.describeNode', { objectId: owner.objectId }),
    inner.session.send('Page.getFrameTree'),
  ]);
  if (!node.frameId || frameTree.frame.id !== node.frameId) return null;
  const { model } = await owner.session.send('DOM.getBoxModel', { objectId: owner.objectId });
  return model.content;
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Waits for every call before any failure counts (a level not drawn explains a failed quad). */
function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

function outcome<T>(settled: Settled<T>): T {
  if (!settled.ok) throw settled.error;
  return settled.value;
}

function quadsPoints(quads: readonly Protocol.DOM.Quad[]): Point[] {
  if (quads.length === 0) throw new Error('the field has no quads');
  return quads.flatMap(quadPoints);
}

function quadPoints(quad: Protocol.DOM.Quad): Point[] {
  const points: Point[] = [];
  for (let index = 0; index + 1 < quad.length; index += 2)
    points.push({ x: quad[index] ?? 0, y: quad[index + 1] ?? 0 });
  return points;
}

/**
 * Points of a frame's viewport (`inner` wide and high) in its parent's coordinates, where the
 * frame's viewport is drawn as `content` (clockwise from the frame's top left). Clipped to the
 * viewport first (the frame shows nothing outside it); a quad that is not a parallelogram (a
 * perspective transform) stands for the whole frame.
 */
function intoParent(points: Point[], content: Protocol.DOM.Quad, inner: LevelInfo): Point[] {
  const [p1, p2, p3, p4] = quadPoints(content);
  if (!p1 || !p2 || !p3 || !p4) throw new Error('a frame has no content quad');
  const affine =
    Math.abs(p1.x + p3.x - p2.x - p4.x) < 0.5 &&
    Math.abs(p1.y + p3.y - p2.y - p4.y) < 0.5 &&
    inner.width > 0 &&
    inner.height > 0;
  if (!affine) return [p1, p2, p3, p4];
  const seen = boundingBox(points, 0);
  const x1 = Math.max(0, seen.x);
  const y1 = Math.max(0, seen.y);
  const x2 = Math.min(inner.width, seen.x + seen.width);
  const y2 = Math.min(inner.height, seen.y + seen.height);
  if (x2 <= x1 || y2 <= y1) return [];
  const map = (x: number, y: number): Point => {
    const u = x / inner.width;
    const v = y / inner.height;
    return {
      x: p1.x + u * (p2.x - p1.x) + v * (p4.x - p1.x),
      y: p1.y + u * (p2.y - p1.y) + v * (p4.y - p1.y),
    };
  };
  return [map(x1, y1), map(x2, y1), map(x2, y2), map(x1, y2)];
}

function boundingBox(points: readonly Point[], margin: number): Box {
  const xs = points.map((point) => point.x);
  const ys = points.map((point) => point.y);
  const x = Math.min(...xs) - margin;
  const y = Math.min(...ys) - margin;
  return { x, y, width: Math.max(...xs) + margin - x, height: Math.max(...ys) + margin - y };
}

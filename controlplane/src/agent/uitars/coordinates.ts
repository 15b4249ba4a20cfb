/**
 * Coordinate conventions of UI-TARS models (uitars-protocol.md §3): model units → screenshot
 * (device) pixels → CSS pixels of the viewport, the space of the jail-service `Action`s.
 * Values stay fractional; the jail-service accepts floats.
 */
import { smartResize } from './smart-resize.js';
import type { Position, Size } from './types.js';

/**
 * How the model writes coordinates: `'1.0'` relative 0–1000 (UI-TARS 1.0, Doubao), `'1.5'`
 * absolute pixels of the smart-resized screenshot (UI-TARS-1.5).
 */
export type CoordinateMode = '1.0' | '1.5';

/**
 * A model profile's coordinate space resolved for one image: relative 0…divisor, or pixels of an
 * image of `width × height` (the image as sent, after the profile's resize).
 */
export type ResolvedSpace =
  | { kind: 'relative'; divisor: number }
  | { kind: 'image-pixels'; width: number; height: number };

/** The divisor of relative (0–1000) coordinates. */
export const RELATIVE_DIVISOR = 1000;

/**
 * How far (as a fraction of the divisor) a model point may lie outside the image and still be
 * clamped onto it rather than rejected.
 */
export const MODEL_RANGE_TOLERANCE = 0.05;

/**
 * The size of the coordinate space the model writes in for a screenshot: 1000×1000 for `'1.0'`,
 * the smart-resized size for `'1.5'` (1000×1000 when smart_resize rejects the aspect ratio, as the
 * reference does).
 */
export function modelDivisors(mode: CoordinateMode | ResolvedSpace, screenshot: Size): Size {
  if (typeof mode === 'object')
    return mode.kind === 'relative'
      ? { width: mode.divisor, height: mode.divisor }
      : { width: mode.width, height: mode.height };
  const resized = mode === '1.5' ? smartResize(screenshot.width, screenshot.height) : null;
  return resized ?? { width: RELATIVE_DIVISOR, height: RELATIVE_DIVISOR };
}

/** Maps a point in model units to screenshot (device) pixels. */
export function modelPointToScreenshot(
  point: Position,
  mode: CoordinateMode | ResolvedSpace,
  screenshot: Size,
): Position {
  const divisors = modelDivisors(mode, screenshot);
  return {
    x: (point.x / divisors.width) * screenshot.width,
    y: (point.y / divisors.height) * screenshot.height,
  };
}

/** Maps screenshot (device) pixels to CSS pixels. `devicePixelRatio` must be positive. */
export function screenshotToCss(point: Position, devicePixelRatio: number): Position {
  return { x: point.x / devicePixelRatio, y: point.y / devicePixelRatio };
}

/** Clamps a CSS point into `[0, width-1] × [0, height-1]` and says whether it moved. */
export function clampToViewport(
  point: Position,
  viewport: Size,
): { point: Position; clamped: boolean } {
  const x = Math.min(Math.max(point.x, 0), Math.max(viewport.width - 1, 0));
  const y = Math.min(Math.max(point.y, 0), Math.max(viewport.height - 1, 0));
  return { point: { x, y }, clamped: x !== point.x || y !== point.y };
}

/** Everything needed to map model points onto the page. */
export interface CoordinateContext {
  /** A UI-TARS mode, or a profile's space resolved for the image sent. */
  mode: CoordinateMode | ResolvedSpace;
  /** Decoded screenshot size in device pixels. */
  screenshot: Size;
  devicePixelRatio: number;
  /** CSS viewport size. */
  viewport: Size;
}

/** A model point mapped onto the page. */
export interface MappedPoint {
  /** Screenshot (device) pixels, unclamped. */
  screenshot: Position;
  /** CSS pixels, clamped into the viewport. */
  css: Position;
  clamped: boolean;
}

/**
 * Maps a model point to screenshot and CSS pixels. Returns `null` when the point is not finite,
 * negative, or beyond the model's image by more than {@link MODEL_RANGE_TOLERANCE}; a small
 * overshoot (e.g. 1000 in mode `'1.0'`) is clamped into the viewport.
 */
export function mapModelPoint(point: Position, context: CoordinateContext): MappedPoint | null {
  const divisors = modelDivisors(context.mode, context.screenshot);
  const limit = 1 + MODEL_RANGE_TOLERANCE;
  if (!Number.isFinite(point.x) || !Number.isFinite(point.y) || point.x < 0 || point.y < 0)
    return null;
  if (point.x > divisors.width * limit || point.y > divisors.height * limit) return null;
  const screenshot = modelPointToScreenshot(point, context.mode, context.screenshot);
  const { point: css, clamped } = clampToViewport(
    screenshotToCss(screenshot, context.devicePixelRatio),
    context.viewport,
  );
  return { screenshot, css, clamped };
}

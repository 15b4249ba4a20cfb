import { actionContracts, actionTypes } from '@clawdie/kit/jail-api';
import type { ActionRecord, StepRecord } from '../../platform/store/task-records.js';

/** Where an executed action happened, in screenshot pixels (the image's own coordinates). */
export type Marker =
  | { kind: 'point'; type: string; x: number; y: number }
  | { kind: 'drag'; type: string; x: number; y: number; toX: number; toY: number }
  | { kind: 'scroll'; type: string; x: number; y: number; direction: Direction };

type Direction = 'up' | 'down' | 'left' | 'right';

/** Actions declared with a point at (x, y); scroll and drag get their own markers first. */
const pointTypes: ReadonlySet<string> = new Set(
  actionTypes.filter((type) => 'x' in actionContracts[type].schema.shape),
);

/**
 * The markers of a step's actions that have a screen point. A drag's end comes from its CSS target
 * times the step's device pixel ratio; skipped actions are not drawn.
 */
export function markersOf(step: StepRecord, actions: readonly ActionRecord[]): Marker[] {
  const ratio = step.devicePixelRatio ?? 1;
  const markers: Marker[] = [];
  for (const action of actions) {
    if (action.status === 'skipped') continue;
    const x = action.screenX ?? (action.cssX === null ? null : action.cssX * ratio);
    const y = action.screenY ?? (action.cssY === null ? null : action.cssY * ratio);
    const detail = action.action as Record<string, unknown> | null;
    if (action.type === 'drag') {
      const from = detail?.from as { x: number; y: number } | undefined;
      const to = detail?.to as { x: number; y: number } | undefined;
      if (!from || !to) continue;
      markers.push({
        kind: 'drag',
        type: action.type,
        x: x ?? from.x * ratio,
        y: y ?? from.y * ratio,
        toX: to.x * ratio,
        toY: to.y * ratio,
      });
    } else if (x !== null && y !== null && action.type === 'scroll') {
      const direction = (detail?.direction as Direction | undefined) ?? 'down';
      markers.push({ kind: 'scroll', type: action.type, x, y, direction });
    } else if (x !== null && y !== null && pointTypes.has(action.type)) {
      markers.push({ kind: 'point', type: action.type, x, y });
    }
  }
  return markers;
}

/**
 * The marker of one planned action (CSS pixels, as the policy gate saw it) on a screenshot of
 * `ratio` device pixels per CSS pixel; null for an action without a screen point.
 */
export function markerOfAction(action: Record<string, unknown>, ratio: number): Marker | null {
  const type = String(action.type ?? '');
  const num = (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) ? value : null;
  if (type === 'drag') {
    const from = action.from as { x?: unknown; y?: unknown } | undefined;
    const to = action.to as { x?: unknown; y?: unknown } | undefined;
    const [x, y, toX, toY] = [num(from?.x), num(from?.y), num(to?.x), num(to?.y)];
    if (x === null || y === null || toX === null || toY === null) return null;
    return { kind: 'drag', type, x: x * ratio, y: y * ratio, toX: toX * ratio, toY: toY * ratio };
  }
  const x = num(action.x);
  const y = num(action.y);
  if (x === null || y === null) return null;
  if (type === 'scroll') {
    const direction = (['up', 'down', 'left', 'right'] as const).find(
      (d) => d === action.direction,
    );
    return { kind: 'scroll', type, x: x * ratio, y: y * ratio, direction: direction ?? 'down' };
  }
  return pointTypes.has(type) ? { kind: 'point', type, x: x * ratio, y: y * ratio } : null;
}

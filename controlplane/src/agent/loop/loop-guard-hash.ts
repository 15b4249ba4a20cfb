import type { ModelAction } from '../uitars/index.js';

/** Actions that are not attempts to change the screen; a step of only these is never a repeat. */
const PASSIVE = new Set(['wait']);

/**
 * A normalised description of one model turn's actions, equal for turns that try "the same
 * thing": coordinates are bucketed (model units / `bucket`), text is trimmed and lower-cased,
 * argument order and aliases do not matter. Returns null for a turn of only passive actions.
 */
export function normaliseTurn(actions: readonly ModelAction[], bucket: number): string | null {
  if (actions.length === 0 || actions.every((action) => PASSIVE.has(action.name))) return null;
  return actions.map((action) => normaliseAction(action, bucket)).join(' ; ');
}

function normaliseAction(action: ModelAction, bucket: number): string {
  const parts: string[] = [];
  const cell = (value: number) => Math.round(value / bucket);
  if (action.start) parts.push(`@${cell(action.start.x)},${cell(action.start.y)}`);
  if (action.end) parts.push(`>${cell(action.end.x)},${cell(action.end.y)}`);
  for (const key of Object.keys(action.args).sort()) {
    if (key === 'start_box' || key === 'end_box') continue;
    const value = (action.args[key] ?? '').trim().toLowerCase().replace(/\s+/g, ' ');
    parts.push(`${key}=${value}`);
  }
  return `${action.name}(${parts.join(' ')})`;
}

/** A short human description of a turn for summaries: `click(@12,30)` stays readable. */
export function describeTurn(hash: string): string {
  return hash.length > 120 ? `${hash.slice(0, 117)}...` : hash;
}

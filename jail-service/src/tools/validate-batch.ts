// Checks a parsed batch against what the schema cannot know: key names and the live viewport.
// Every action is checked before any runs, so a bad batch changes nothing on the page.
import { type Action, actionPoints } from '@clawdie/kit/jail-api';
import { OutOfRangeError, type RequestIssue, UnknownKeyError } from '../errors.js';
import { normalizeKey, splitChord } from '../keys.js';

export interface ViewportSize {
  width: number;
  height: number;
}

/**
 * Throws UnknownKeyError or OutOfRangeError (400) for the first bad action by index, listing the
 * issues of every bad action; returns normally when the whole batch can run.
 */
export function validateBatch(actions: readonly Action[], viewport: ViewportSize): void {
  const issues: Array<RequestIssue & { kind: 'key' | 'range'; index: number }> = [];
  actions.forEach((action, index) => {
    for (const [field, name] of keyNames(action)) {
      const parts = splitChord([name]);
      const unknown = parts.length === 0 ? [name] : parts.filter((part) => !normalizeKey(part));
      for (const part of unknown) {
        const path = `actions.${index}.${field}`;
        issues.push({ kind: 'key', index, path, message: `unknown key name "${part}"` });
      }
    }
    for (const point of actionPoints(action)) {
      if (point.x < viewport.width && point.y < viewport.height) continue;
      issues.push({
        kind: 'range',
        index,
        path: `actions.${index}`,
        message: `point (${point.x}, ${point.y}) is outside the ${viewport.width}x${viewport.height} CSS viewport`,
      });
    }
  });
  const first = issues[0];
  if (!first) return;
  const listed = issues.map(({ path, message }) => ({ path, message }));
  const type = actions[first.index]?.type ?? 'action';
  const message = `action ${first.index} (${type}): ${first.message}`;
  if (first.kind === 'key') throw new UnknownKeyError(message, listed);
  throw new OutOfRangeError(message, listed);
}

/** The key names an action carries (its `keys` or its `key`), each with its field's path. */
function keyNames(action: Action): Array<[string, string]> {
  if ('keys' in action) return action.keys.map((key, index) => [`keys.${index}`, key]);
  if ('key' in action) return [['key', action.key]];
  return [];
}

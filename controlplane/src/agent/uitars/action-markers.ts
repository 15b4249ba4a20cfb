/** Position of one `Action:` / `Action：` marker in a model turn. */
export interface ActionMarker {
  index: number;
  marker: 'Action:' | 'Action：';
}

const MARKERS = ['Action:', 'Action：'] as const;

/**
 * Finds the `Action:` markers that are not inside a quoted string, following the upstream
 * revision `16ed233` of `actionParser.ts` (uitars-protocol.md §1.8): an apostrophe between letters
 * (`I'll`, `user's`) does not open a quote, a backslash escapes inside quotes, and before the first
 * marker a newline ends an unclosed quote so stray quotes in the thought cannot hide the marker.
 */
export function findActionMarkers(text: string): ActionMarker[] {
  const markers: ActionMarker[] = [];
  let quote: string | null = null;
  let escaping = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quote !== null) {
      if (escaping) escaping = false;
      else if ((char === '\n' || char === '\r') && markers.length === 0) quote = null;
      else if (char === '\\') escaping = true;
      else if (char === quote) quote = null;
      continue;
    }
    if (char === "'" && isApostrophe(text, i)) continue;
    if (char === '"' || char === "'") {
      quote = char;
      continue;
    }
    const marker = MARKERS.find((candidate) => text.startsWith(candidate, i));
    if (marker !== undefined) {
      markers.push({ index: i, marker });
      i += marker.length - 1;
    }
  }
  return markers;
}

function isApostrophe(text: string, index: number): boolean {
  const previous = text[index - 1] ?? '';
  const next = text[index + 1] ?? '';
  if (!/[A-Za-z0-9]/.test(previous)) return false;
  return next === '' || /[A-Za-z0-9\s,.;:!?)}\]]/.test(next);
}

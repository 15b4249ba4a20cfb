/**
 * Reads the function calls of an action block (`click(start_box='(1,2)')`, one per line or
 * separated by blank lines). A small recursive-descent reader instead of the reference's regular
 * expressions, so quoting, escapes and a missing final `)` are handled precisely.
 */

/** One call as written: name as written, keyword arguments with quoted values unescaped. */
export interface RawCall {
  name: string;
  args: Record<string, string>;
  /** The call's source text, for error messages. */
  source: string;
}

/** Result of {@link readCalls}: the calls in order, or why one of them is malformed. */
export type ReadCallsResult =
  | { success: true; calls: RawCall[] }
  | { success: false; reason: string; source: string };

type ArgumentsResult =
  | { ok: true; args: Record<string, string>; end: number; closed: boolean }
  | { ok: false; reason: string; end: number };

const CALL_START = /([A-Za-z_]\w*)\(/y;
const KEY = /([A-Za-z_]\w*)\s*=\s*/y;
const NUMBER = /[-+]?(?:\d+\.?\d*|\.\d+)/y;
/** What may follow a closing quote: another `key=`, the closing `)`, a line break or the end. */
const AFTER_CLOSING_QUOTE = /[ \t]*(?:,\s*(?:[A-Za-z_]\w*\s*=|\)|$)|\)|\r?\n|$)/y;
const ESCAPES: Readonly<Record<string, string>> = { "'": "'", '"': '"', '\\': '\\', n: '\n' };

/**
 * Reads every call of `block`. A line that does not start with `name(` is prose and skipped, as
 * is text after a call's closing `)` on the same line. A call whose final `)` is missing is
 * accepted when its arguments are complete and nothing but a line break or the end follows
 * (Doubao `click(point='<point>450 565</point>'`, UI-TARS-desktop PR #942).
 */
export function readCalls(block: string): ReadCallsResult {
  const calls: RawCall[] = [];
  let index = 0;
  while (index < block.length) {
    index = skipWhitespace(block, index);
    if (index >= block.length) break;
    CALL_START.lastIndex = index;
    const match = CALL_START.exec(block);
    if (match === null) {
      index = endOfLine(block, index);
      continue;
    }
    const parsed = readArguments(block, index + match[0].length);
    if (!parsed.ok) {
      return { success: false, reason: parsed.reason, source: snippet(block, index) };
    }
    calls.push({
      name: match[1] ?? '',
      args: parsed.args,
      source: block.slice(index, parsed.end).trim(),
    });
    index = parsed.closed ? endOfLine(block, parsed.end) : parsed.end;
  }
  return { success: true, calls };
}

function readArguments(text: string, start: number): ArgumentsResult {
  const args: Record<string, string> = {};
  let lastKey: string | null = null;
  let index = start;
  for (;;) {
    index = skipWhitespace(text, index);
    if (index >= text.length) return { ok: true, args, end: index, closed: false };
    if (text[index] === ')') return { ok: true, args, end: index + 1, closed: true };
    KEY.lastIndex = index;
    const keyMatch = KEY.exec(text);
    NUMBER.lastIndex = index;
    const numberMatch = keyMatch === null ? NUMBER.exec(text) : null;
    if (keyMatch !== null) {
      const key = keyMatch[1] ?? '';
      const value = readValue(text, index + keyMatch[0].length);
      if (value === null)
        return { ok: false, reason: `unterminated quoted value of ${key}`, end: index };
      args[key] = value.value;
      lastKey = key;
      index = value.end;
    } else if (numberMatch !== null && lastKey?.endsWith('_box')) {
      // `start_box=100, 200` without brackets: the bare numbers continue the box.
      args[lastKey] = `${args[lastKey] ?? ''},${numberMatch[0]}`;
      index += numberMatch[0].length;
    } else {
      return { ok: false, reason: `expected key=value at "${snippet(text, index)}"`, end: index };
    }
    const next = skipWhitespace(text, index);
    if (next >= text.length) return { ok: true, args, end: next, closed: false };
    if (text[next] === ',') {
      index = next + 1;
    } else if (text[next] === ')') {
      return { ok: true, args, end: next + 1, closed: true };
    } else if (text.slice(index, next).includes('\n')) {
      return { ok: true, args, end: index, closed: false };
    } else {
      return { ok: false, reason: `unexpected text "${snippet(text, next)}"`, end: next };
    }
  }
}

function readValue(text: string, start: number): { value: string; end: number } | null {
  const first = text[start];
  if (first === "'" || first === '"') return readQuoted(text, start, first);
  let depth = 0;
  let index = start;
  for (; index < text.length; index++) {
    const char = text[index];
    if (char === '(' || char === '[') depth++;
    else if (char === ')' || char === ']') {
      if (depth === 0) break;
      depth--;
    } else if ((char === ',' || char === '\n') && depth === 0) break;
  }
  return { value: text.slice(start, index).trim(), end: index };
}

/**
 * Reads a quoted value and unescapes `\'`, `\"`, `\\` and `\n` like Python's string literals
 * (other backslash sequences stay verbatim). A quote character closes the value only when
 * {@link AFTER_CLOSING_QUOTE} follows, so `type(content='it's, fine')` keeps its apostrophe.
 */
function readQuoted(
  text: string,
  start: number,
  quote: string,
): { value: string; end: number } | null {
  let value = '';
  let index = start + 1;
  while (index < text.length) {
    const char = text[index] ?? '';
    if (char === '\\' && index + 1 < text.length) {
      const next = text[index + 1] ?? '';
      value += ESCAPES[next] ?? `\\${next}`;
      index += 2;
      continue;
    }
    if (char === quote) {
      AFTER_CLOSING_QUOTE.lastIndex = index + 1;
      if (AFTER_CLOSING_QUOTE.test(text)) return { value, end: index + 1 };
    }
    value += char;
    index++;
  }
  return null;
}

function skipWhitespace(text: string, index: number): number {
  let position = index;
  while (position < text.length && /\s/.test(text[position] ?? '')) position++;
  return position;
}

function endOfLine(text: string, index: number): number {
  const newline = text.indexOf('\n', index);
  return newline === -1 ? text.length : newline + 1;
}

function snippet(text: string, index: number): string {
  const line = text.slice(index, endOfLine(text, index)).trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

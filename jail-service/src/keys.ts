// Key-name normalisation for hotkey/press/keydown/keyup: the loose names models and people write
// ("ctrl", "cmd", "esc", "pagedown", "A") → the DOM `key` names the CDP keyboard understands.
// Pure: no browser import, so the HTTP layer can reject unknown names before anything runs.

const named: Readonly<Record<string, string>> = {
  ctrl: 'Control',
  control: 'Control',
  cmd: 'Meta',
  command: 'Meta',
  meta: 'Meta',
  win: 'Meta',
  windows: 'Meta',
  super: 'Meta',
  alt: 'Alt',
  option: 'Alt',
  opt: 'Alt',
  shift: 'Shift',
  enter: 'Enter',
  return: 'Enter',
  esc: 'Escape',
  escape: 'Escape',
  space: 'Space',
  spacebar: 'Space',
  tab: 'Tab',
  backspace: 'Backspace',
  delete: 'Delete',
  del: 'Delete',
  insert: 'Insert',
  ins: 'Insert',
  home: 'Home',
  end: 'End',
  pageup: 'PageUp',
  pgup: 'PageUp',
  pagedown: 'PageDown',
  pgdn: 'PageDown',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  arrowup: 'ArrowUp',
  arrowdown: 'ArrowDown',
  arrowleft: 'ArrowLeft',
  arrowright: 'ArrowRight',
  capslock: 'CapsLock',
  numlock: 'NumLock',
  scrolllock: 'ScrollLock',
  pause: 'Pause',
  contextmenu: 'ContextMenu',
  menu: 'ContextMenu',
  plus: '+',
  minus: '-',
  equal: '=',
  equals: '=',
  comma: ',',
  period: '.',
  dot: '.',
  slash: '/',
  backslash: '\\',
  semicolon: ';',
  quote: "'",
  apostrophe: "'",
  backquote: '`',
  backtick: '`',
  bracketleft: '[',
  bracketright: ']',
};

/** Every multi-letter key name the table knows (besides f1–f12), e.g. for other key maps' tests. */
export const NAMED_KEYS: readonly string[] = Object.freeze(Object.keys(named));

/** Printable characters of the US layout that the CDP keyboard can press as keys. */
export const PRINTABLE_KEYS: ReadonlySet<string> = new Set('`-=[]\\;\',./~!@#$%^&*()_+{}|:"<>?');

/**
 * Maps one key name to the key the CDP keyboard presses, case-insensitively; `undefined` when
 * unknown. Letters and digits map to their physical keys (`a`/`A` → `KeyA`, `1` → `Digit1`), so a
 * held Shift yields `A` or `!` like a real keyboard; other characters map to themselves.
 */
export function normalizeKey(name: string): string | undefined {
  const lower = name.trim().toLowerCase();
  if (lower.length === 1) {
    if (/^[a-z]$/.test(lower)) return `Key${lower.toUpperCase()}`;
    if (/^\d$/.test(lower)) return `Digit${lower}`;
    return PRINTABLE_KEYS.has(lower) ? lower : undefined;
  }
  const fn = /^f([1-9]|1[0-2])$/.exec(lower);
  if (fn) return `F${fn[1]}`;
  return named[lower];
}

/**
 * Splits chord entries written as one string ("ctrl+shift+t", "ctrl c") into key names; a lone
 * "+" stays the plus key, and "ctrl++" is Control then "+".
 */
export function splitChord(keys: readonly string[]): string[] {
  return keys.flatMap((entry) =>
    entry.trim() === '+' ? ['+'] : entry.split(/\s+|(?<=.)\+(?=.)/).filter((part) => part !== ''),
  );
}

export type KeyResolution = { ok: true; keys: string[] } | { ok: false; unknown: string[] };

/** Normalises every key of a chord; reports all unknown names at once. */
export function resolveKeys(keys: readonly string[]): KeyResolution {
  const parts = splitChord(keys);
  const unknown = parts.filter((part) => normalizeKey(part) === undefined);
  if (unknown.length > 0 || parts.length === 0) return { ok: false, unknown };
  return { ok: true, keys: parts.map((part) => normalizeKey(part) as string) };
}

// Key names as models and the Action union write them ("ctrl", "enter", "pagedown", "A") → the X
// keysym names xdotool understands ("ctrl", "Return", "Next", "a"). Pure, so batches are checked
// before anything runs.

const named: Readonly<Record<string, string>> = {
  ctrl: 'ctrl',
  control: 'ctrl',
  cmd: 'super',
  command: 'super',
  meta: 'super',
  win: 'super',
  windows: 'super',
  super: 'super',
  alt: 'alt',
  option: 'alt',
  opt: 'alt',
  shift: 'shift',
  enter: 'Return',
  return: 'Return',
  esc: 'Escape',
  escape: 'Escape',
  space: 'space',
  spacebar: 'space',
  tab: 'Tab',
  backspace: 'BackSpace',
  delete: 'Delete',
  del: 'Delete',
  insert: 'Insert',
  ins: 'Insert',
  home: 'Home',
  end: 'End',
  pageup: 'Prior',
  pgup: 'Prior',
  pagedown: 'Next',
  pgdn: 'Next',
  up: 'Up',
  down: 'Down',
  left: 'Left',
  right: 'Right',
  arrowup: 'Up',
  arrowdown: 'Down',
  arrowleft: 'Left',
  arrowright: 'Right',
  capslock: 'Caps_Lock',
  numlock: 'Num_Lock',
  scrolllock: 'Scroll_Lock',
  pause: 'Pause',
  contextmenu: 'Menu',
  menu: 'Menu',
  plus: 'plus',
  minus: 'minus',
  equal: 'equal',
  equals: 'equal',
  comma: 'comma',
  period: 'period',
  dot: 'period',
  slash: 'slash',
  backslash: 'backslash',
  semicolon: 'semicolon',
  quote: 'apostrophe',
  apostrophe: 'apostrophe',
  backquote: 'grave',
  backtick: 'grave',
  bracketleft: 'bracketleft',
  bracketright: 'bracketright',
};

const symbols: Readonly<Record<string, string>> = {
  '`': 'grave',
  '-': 'minus',
  '=': 'equal',
  '[': 'bracketleft',
  ']': 'bracketright',
  '\\': 'backslash',
  ';': 'semicolon',
  "'": 'apostrophe',
  ',': 'comma',
  '.': 'period',
  '/': 'slash',
  '~': 'asciitilde',
  '!': 'exclam',
  '@': 'at',
  '#': 'numbersign',
  $: 'dollar',
  '%': 'percent',
  '^': 'asciicircum',
  '&': 'ampersand',
  '*': 'asterisk',
  '(': 'parenleft',
  ')': 'parenright',
  _: 'underscore',
  '+': 'plus',
  '{': 'braceleft',
  '}': 'braceright',
  '|': 'bar',
  ':': 'colon',
  '"': 'quotedbl',
  '<': 'less',
  '>': 'greater',
  '?': 'question',
};

/** One key name → its X keysym name, case-insensitively; `undefined` when unknown. */
export function toKeysym(name: string): string | undefined {
  const trimmed = name.trim();
  const lower = trimmed.toLowerCase();
  if (lower.length === 1) {
    if (/^[a-z0-9]$/.test(lower)) return lower;
    return symbols[lower];
  }
  const fn = /^f([1-9]|1[0-2])$/.exec(lower);
  if (fn) return `F${fn[1]}`;
  return named[lower];
}

/**
 * Splits chord entries ("ctrl+shift+t", "ctrl c") into key names; a lone "+" stays the plus key
 * and "ctrl++" is ctrl then "+".
 */
export function splitChord(keys: readonly string[]): string[] {
  const parts: string[] = [];
  for (const entry of keys) {
    const trimmed = entry.trim();
    if (trimmed === '+') {
      parts.push('+');
      continue;
    }
    const trailingPlus = trimmed.endsWith('++');
    const body = trailingPlus ? trimmed.slice(0, -2) : trimmed;
    parts.push(...body.split(/[\s+]+/).filter((part) => part !== ''));
    if (trailingPlus) parts.push('+');
  }
  return parts;
}

// Claude's computer tool writes keys in xdotool's `key` syntax ("Return", "ctrl+s", "alt+Tab",
// "KP_0"; several chords separated by spaces are pressed one after another — @ai-sdk/anthropic
// `computer_20251124.ts`, computer.py `xdotool key -- {text}`). Clawdie's hotkey takes the loose
// key names of jail-service/src/keys.ts ("ctrl", "enter", "pagedown", "a"); this maps the X
// keysym names that table does not know onto names it does. Anything else passes through
// lower-cased, and the jail-service refuses a name it cannot press.

/** X keysym (lower-case) → a key name jail-service/src/keys.ts understands. */
const KEYSYMS: Readonly<Record<string, string>> = {
  control_l: 'ctrl',
  control_r: 'ctrl',
  shift_l: 'shift',
  shift_r: 'shift',
  alt_l: 'alt',
  alt_r: 'alt',
  meta_l: 'meta',
  meta_r: 'meta',
  super_l: 'super',
  super_r: 'super',
  kp_enter: 'enter',
  prior: 'pageup',
  next: 'pagedown',
  page_up: 'pageup',
  page_down: 'pagedown',
  kp_prior: 'pageup',
  kp_next: 'pagedown',
  kp_page_up: 'pageup',
  kp_page_down: 'pagedown',
  kp_home: 'home',
  kp_end: 'end',
  kp_up: 'up',
  kp_down: 'down',
  kp_left: 'left',
  kp_right: 'right',
  kp_insert: 'insert',
  kp_delete: 'delete',
  kp_space: 'space',
  kp_tab: 'tab',
  kp_add: 'plus',
  plus: 'plus',
  '+': 'plus',
  kp_subtract: '-',
  kp_multiply: '*',
  kp_divide: '/',
  kp_decimal: '.',
  kp_equal: '=',
  caps_lock: 'capslock',
  num_lock: 'numlock',
  scroll_lock: 'scrolllock',
  grave: 'backquote',
  asciitilde: '~',
  exclam: '!',
  at: '@',
  numbersign: '#',
  dollar: '$',
  percent: '%',
  asciicircum: '^',
  ampersand: '&',
  asterisk: '*',
  parenleft: '(',
  parenright: ')',
  underscore: '_',
  braceleft: '{',
  braceright: '}',
  bar: '|',
  colon: ':',
  quotedbl: '"',
  less: '<',
  greater: '>',
  question: '?',
};

/** Most chords one `key` action may press in a row. */
const MAX_CHORDS = 8;

/**
 * One xdotool key name → Clawdie's name (lower-case). The plus key becomes "plus": the hotkey
 * planner splits a chord on "+".
 */
export function xdotoolKey(name: string): string {
  const lower = name.toLowerCase();
  const digit = /^kp_(\d)$/.exec(lower)?.[1];
  if (digit !== undefined) return digit;
  return KEYSYMS[lower] ?? lower;
}

/**
 * xdotool `key` text → its chords, each a list of Clawdie key names ("ctrl+shift+t Return" →
 * [["ctrl","shift","t"],["enter"]]); null when there is none, a chord is empty, or there are too
 * many. A lone "+" or a trailing "+" (as in "ctrl++") is the plus key.
 */
export function xdotoolChords(text: string): string[][] | null {
  const chords = text
    .trim()
    .split(/\s+/)
    .filter((chord) => chord !== '');
  if (chords.length === 0 || chords.length > MAX_CHORDS) return null;
  const result: string[][] = [];
  for (const chord of chords) {
    const parts = chord === '+' ? ['+'] : chord.split(/(?<=.)\+(?=.)/);
    if (parts.some((part) => part === '')) return null;
    result.push(parts.map(xdotoolKey));
  }
  return result;
}

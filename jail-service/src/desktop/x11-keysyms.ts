// The X keysym of each key the jail-service's key table (keys.ts) resolves to: `normalizeKey`
// turns what models write ("ctrl", "pagedown", "A") into DOM key names ("Control", "PageDown",
// "KeyA"), and this maps those DOM names onto the keysyms xdotool presses. One key table: a name
// the browser accepts is a name the desktop accepts.

const named: Readonly<Record<string, string>> = {
  Control: 'Control_L',
  Meta: 'Super_L',
  Alt: 'Alt_L',
  Shift: 'Shift_L',
  Enter: 'Return',
  Escape: 'Escape',
  Space: 'space',
  Tab: 'Tab',
  Backspace: 'BackSpace',
  Delete: 'Delete',
  Insert: 'Insert',
  Home: 'Home',
  End: 'End',
  PageUp: 'Prior',
  PageDown: 'Next',
  ArrowUp: 'Up',
  ArrowDown: 'Down',
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  CapsLock: 'Caps_Lock',
  NumLock: 'Num_Lock',
  ScrollLock: 'Scroll_Lock',
  Pause: 'Pause',
  ContextMenu: 'Menu',
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

/**
 * One DOM key name as `normalizeKey` returns it → its X keysym name; `undefined` for a name the
 * key table never produces. `KeyA` → `a`, `Digit1` → `1`, `F5` → `F5`, `PageDown` → `Next`.
 */
export function domKeyToKeysym(key: string): string | undefined {
  const letter = /^Key([A-Z])$/.exec(key)?.[1];
  if (letter) return letter.toLowerCase();
  const digit = /^Digit(\d)$/.exec(key)?.[1];
  if (digit) return digit;
  if (/^F([1-9]|1[0-2])$/.test(key)) return key;
  return key.length === 1 ? symbols[key] : named[key];
}

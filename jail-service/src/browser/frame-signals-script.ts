/**
 * Runs in each frame: counts visible password and one-time-code inputs and describes the
 * iframes (src, title, attribute names, id). Reads no input values.
 */
export const FRAME_SIGNALS_SCRIPT = `(() => {
  const visible = (el) => {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none';
  };
  const count = (selector) => [...document.querySelectorAll(selector)].filter(visible).length;
  const frames = [...document.querySelectorAll('iframe')].filter(visible).map((frame) => ({
    src: frame.src || '',
    title: frame.getAttribute('title') || '',
    attributes: [...frame.attributes].map((attribute) => attribute.name),
    id: frame.id || '',
  }));
  return {
    origin: location.origin,
    password: count('input[type="password"]'),
    otp: count('input[autocomplete~="one-time-code" i]'),
    frames,
  };
})()`;

/** The kind of element that has focus (through same-origin frames): for the input audit. */
export const FOCUSED_KIND_SCRIPT = `(() => {
  let element = document.activeElement;
  while (element && element.tagName === 'IFRAME') {
    try { element = element.contentDocument.activeElement; } catch { return 'other'; }
  }
  if (!element) return 'other';
  if (element.tagName === 'INPUT' && element.type === 'password') return 'password';
  if (element.tagName === 'INPUT' || element.tagName === 'TEXTAREA' || element.isContentEditable)
    return 'text';
  return 'other';
})()`;

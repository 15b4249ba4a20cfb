// The page-side collector behind GET /elements, kept as plain JavaScript source: a function object
// would carry transpiler helpers (tsx/esbuild `__name`) that do not exist inside the page.

/** Most elements reported; a bound on the response size of huge pages. */
export const MAX_ELEMENTS = 1000;
/** Longest `text` and `name` reported, after whitespace is collapsed. */
export const MAX_TEXT = 100;

/**
 * Evaluates to `{ elements, viewport, device_pixel_ratio }` (elementsResponseSchema): visible
 * interactive elements intersecting the viewport, in document order (open shadow roots after their
 * document), with `getBoundingClientRect()` boxes in CSS pixels.
 */
export const ELEMENTS_SCRIPT = `(() => {
  const SELECTOR = [
    'a', 'button', 'input:not([type="hidden"])', 'select', 'textarea', 'summary', 'label',
    '[role="button"]', '[role="link"]', '[role="checkbox"]', '[role="radio"]', '[role="switch"]',
    '[role="tab"]', '[role="menuitem"]', '[role="option"]', '[role="textbox"]', '[role="combobox"]',
    '[onclick]', '[contenteditable]', '[tabindex]:not([tabindex="-1"])',
  ].join(',');
  const MAX_ELEMENTS = ${MAX_ELEMENTS};
  const MAX_TEXT = ${MAX_TEXT};
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const collapse = (value) => String(value ?? '').replace(/\\s+/g, ' ').trim().slice(0, MAX_TEXT);
  const candidates = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll(SELECTOR)) candidates.push(el);
    for (const host of root.querySelectorAll('*')) if (host.shadowRoot) visit(host.shadowRoot);
  };
  visit(document);
  const isInteractive = (el, tag) => {
    if (tag === 'label') return Boolean(el.control);
    if (el.hasAttribute('contenteditable')) return el.isContentEditable || el.matches('a,button,input,select,textarea,summary,[role],[onclick]');
    return true;
  };
  const isVisible = (el, rect) => {
    if (rect.width <= 0 || rect.height <= 0) return false;
    if (rect.right <= 0 || rect.bottom <= 0 || rect.left >= vw || rect.top >= vh) return false;
    if (typeof el.checkVisibility === 'function') {
      return el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    }
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none' && style.opacity !== '0';
  };
  const textOf = (el, tag) => {
    if (tag === 'input') {
      const type = el.type;
      if (type === 'password') return '';
      if (type === 'checkbox' || type === 'radio') return el.checked ? 'checked' : '';
      return el.value;
    }
    if (tag === 'textarea') return el.value;
    if (tag === 'select') return el.selectedOptions[0]?.textContent ?? '';
    return el.innerText ?? el.textContent ?? '';
  };
  const labelText = (el) => {
    if (el.labels && el.labels.length > 0) {
      return Array.from(el.labels, (label) => label.innerText ?? label.textContent).join(' ');
    }
    const ids = el.getAttribute('aria-labelledby');
    if (!ids) return '';
    return ids.split(/\\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
  };
  const nameOf = (el) => {
    const name = collapse(el.getAttribute('aria-label')) || collapse(el.getAttribute('placeholder'))
      || collapse(el.getAttribute('name')) || collapse(labelText(el));
    return name === '' ? null : name;
  };
  const elements = [];
  for (const el of candidates) {
    if (elements.length >= MAX_ELEMENTS) break;
    const tag = el.tagName.toLowerCase();
    if (!isInteractive(el, tag)) continue;
    const rect = el.getBoundingClientRect();
    if (!isVisible(el, rect)) continue;
    const disabled = el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true';
    elements.push({
      index: elements.length,
      tag,
      role: el.getAttribute('role') || null,
      text: collapse(textOf(el, tag)),
      name: nameOf(el),
      id: el.id || null,
      input_type: tag === 'input' ? el.type : null,
      href: tag === 'a' && typeof el.href === 'string' && el.href !== '' ? el.href : null,
      enabled: !disabled,
      box: { x: rect.x, y: rect.y, width: rect.width, height: rect.height },
    });
  }
  return { elements, viewport: { width: vw, height: vh }, device_pixel_ratio: window.devicePixelRatio };
})()`;

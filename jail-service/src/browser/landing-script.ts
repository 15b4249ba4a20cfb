// Page-side functions behind POST /landing, secret input and field masks, kept as plain JavaScript
// source (a function object would carry transpiler helpers that do not exist inside the page).
// Each runs with `Runtime.callFunctionOn` on a node of the frame it inspects.

/**
 * `this` = a Document. Walks down from it to what a pointer at (x, y) (mode `point`) or the
 * keyboard (mode `focus`) reaches, entering every frame whose document this realm can read. Stops
 * at a frame it cannot read (cross-origin): `barrier: true`, with the point in that frame's
 * coordinates and the URL its owner names (`owner`). Every frame owner is a frame: `iframe`,
 * `frame`, `object`, `embed`, `fencedframe` (an `<object data=https://pay…>` hides a frame just
 * as well as an iframe). With `wantHandle`, returns the element reached (the barrier frame or the
 * target) instead of the description, for a by-reference call.
 */
export const WALK_FUNCTION = `function (mode, x, y, wantHandle) {
  const owners = ['iframe', 'frame', 'object', 'embed', 'fencedframe', 'portal'];
  const isFrame = (el) => Boolean(el) && owners.includes(el.localName);
  const frames = [];
  let doc = this;
  let el = null;
  let barrier = false;
  for (;;) {
    const win = doc.defaultView;
    frames.push({ url: doc.URL, origin: win ? String(win.origin) : 'null' });
    if (mode === 'point') {
      el = doc.elementFromPoint(x, y);
      while (el && el.shadowRoot) {
        const inner = el.shadowRoot.elementFromPoint(x, y);
        if (!inner || inner === el) break;
        el = inner;
      }
    } else {
      el = doc.activeElement;
      while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    }
    if (!isFrame(el)) break;
    const rect = el.getBoundingClientRect();
    const style = el.ownerDocument.defaultView.getComputedStyle(el);
    const left = rect.left + el.clientLeft + parseFloat(style.paddingLeft || '0');
    const top = rect.top + el.clientTop + parseFloat(style.paddingTop || '0');
    if (mode === 'point') {
      const inside = x >= left && y >= top && x < left + el.clientWidth - parseFloat(style.paddingLeft || '0') - parseFloat(style.paddingRight || '0') + 1 && y < top + el.clientHeight - parseFloat(style.paddingTop || '0') - parseFloat(style.paddingBottom || '0') + 1;
      if (!inside) break;
      x -= left;
      y -= top;
    }
    let inner = null;
    try { inner = el.contentDocument; } catch (error) { inner = null; }
    if (!inner) { barrier = true; break; }
    doc = inner;
  }
  if (wantHandle) return el;
  if (barrier) return { frames, barrier, x, y, owner: String((el.localName === 'object' ? el.data : el.src) || '') };
  return { frames, barrier, x, y, element: el ? describe(el) : null, destination: el ? destination(el, mode) : null };

  function describe(node) {
    const tag = node.localName || String(node.nodeName).toLowerCase();
    const inputType = tag === 'input' ? String(node.type || 'text').toLowerCase() : null;
    const autocomplete = node.getAttribute ? node.getAttribute('autocomplete') : null;
    const textTypes = ['text', 'email', 'tel', 'url', 'search', 'number'];
    let field = 'other';
    if (inputType === 'password') field = 'password';
    else if (inputType !== null && textTypes.includes(inputType)) field = 'text';
    else if (tag === 'textarea') field = 'textarea';
    else if (node.isContentEditable) field = 'editable';
    return { tag, input_type: inputType, autocomplete, field };
  }
  function baseTarget(node) {
    const base = node.ownerDocument.querySelector('base[target]');
    return base ? base.getAttribute('target') : '';
  }
  function newWindow(target) {
    const name = String(target || '').toLowerCase();
    return name !== '' && name !== '_self' && name !== '_parent' && name !== '_top';
  }
  function formOf(form, control) {
    const attribute = (name) => control && control.hasAttribute(name);
    const url = attribute('formaction') ? control.formAction : form.action;
    const method = attribute('formmethod') ? control.formMethod : form.method;
    const target = attribute('formtarget') ? control.formTarget : (form.getAttribute('target') ?? baseTarget(form));
    return { kind: 'form', url: String(url), method: String(method || 'get').toUpperCase(), new_window: newWindow(target) };
  }
  function isSubmit(control) {
    const type = String(control.type || '').toLowerCase();
    return (control.localName === 'button' || control.localName === 'input') && (type === 'submit' || type === 'image');
  }
  // Implicit submission (Enter in a field) clicks the form's default button: the first submit
  // button in tree order whose form owner is the form, also one outside it attached by form=.
  function defaultButton(form) {
    for (const candidate of form.getRootNode().querySelectorAll('button, input')) {
      if (candidate.form === form && isSubmit(candidate)) return candidate;
    }
    return null;
  }
  // A click on a label clicks its control, unless it lands on interactive content inside it.
  function labelled(start) {
    const label = start.closest('label');
    const control = label ? label.control : null;
    if (!control || control === start || control.contains(start)) return null;
    const inner = start.closest('a[href], area[href], button, input, select, textarea');
    return inner && label.contains(inner) ? null : control;
  }
  function destination(node, walkMode) {
    const start = node.nodeType === 1 ? node : node.parentElement;
    if (!start) return null;
    const control = walkMode === 'point' ? labelled(start) : null;
    return (control && own(control, walkMode)) || own(start, walkMode);
  }
  function own(start, walkMode) {
    const link = start.closest('a[href], area[href]');
    if (link) {
      const target = link.getAttribute('target') ?? baseTarget(link);
      return { kind: 'link', url: String(link.href), method: 'GET', new_window: newWindow(target) };
    }
    const control = start.closest('button, input');
    if (control && control.form) {
      const type = String(control.type || '').toLowerCase();
      if (isSubmit(control)) return formOf(control.form, control);
      const typing = walkMode === 'focus' && control.localName === 'input' && type !== 'button' && type !== 'reset' && type !== 'checkbox' && type !== 'radio' && type !== 'file';
      if (typing) return formOf(control.form, defaultButton(control.form));
    }
    return null;
  }
}`;

/**
 * `this` = a masked field or a frame element it is drawn in. What the mask needs besides the
 * element's on-screen quads (which CDP computes, transforms included, field-masks.ts):
 * `rendered` — connected and laid out (a field with no box draws nothing); `moving` — a running
 * animation or transition (CSS or script) on the element or on any of its flat-tree ancestors, up
 * through every frame this realm can read, which could move it while an image is taken; `width`
 * and `height` — the viewport of the topmost frame this realm can read (CSS pixels, scrollbars
 * included): the frame's area that its owner's content box is drawn as.
 */
export const BOX_FUNCTION = `function () {
  const rendered = this.isConnected && this.getClientRects().length > 0;
  let moving = false;
  let node = this;
  let win = this.ownerDocument.defaultView;
  while (node) {
    for (let at = node; at; at = at.assignedSlot || at.parentNode || (at.nodeType === 11 ? at.host : null)) {
      if (at.nodeType === 1 && at.getAnimations().some((animation) => animation.playState === 'running')) moving = true;
    }
    let owner = null;
    try { owner = win.frameElement; } catch (error) { owner = null; }
    if (!owner) break;
    node = owner;
    win = owner.ownerDocument.defaultView;
  }
  return { rendered, moving, width: win.innerWidth, height: win.innerHeight };
}`;

/**
 * `this` = the element a secret goes into. In one page task: checks that it is its document's
 * focused element and that its field kind is one of `fields` or its autocomplete tokens meet
 * `tokens`, then inserts `text` in one step — `execCommand('insertText')` fires the input events
 * a keyboard would (React and other controlled inputs accept it); when that inserts nothing, the
 * native value setter plus an `input` event. Returns `inserted`, `set`, `not-focused`,
 * `wrong-field` or `failed`.
 */
export const INSERT_FUNCTION = `function (text, fields, tokens) {
  const doc = this.ownerDocument;
  const focused = doc.activeElement === this || (this.isContentEditable && this.contains(doc.activeElement));
  if (!focused) return 'not-focused';
  const tag = this.localName;
  const type = tag === 'input' ? String(this.type || 'text').toLowerCase() : null;
  let field = 'other';
  if (type === 'password') field = 'password';
  else if (type !== null && ['text', 'email', 'tel', 'url', 'search', 'number'].includes(type)) field = 'text';
  else if (tag === 'textarea') field = 'textarea';
  else if (this.isContentEditable) field = 'editable';
  const own = String(this.getAttribute('autocomplete') || '').toLowerCase().split(/\\s+/).filter(Boolean);
  if (field === 'other' || !(fields.includes(field) || own.some((token) => tokens.includes(token)))) return 'wrong-field';
  const read = () => (field === 'editable' ? this.textContent : this.value);
  const before = read();
  let done = false;
  try { done = doc.execCommand('insertText', false, text); } catch (error) { done = false; }
  if (done && read() !== before) return 'inserted';
  const win = doc.defaultView;
  const proto = tag === 'input' ? win.HTMLInputElement.prototype : tag === 'textarea' ? win.HTMLTextAreaElement.prototype : null;
  if (!proto) return 'failed';
  const setter = Object.getOwnPropertyDescriptor(proto, 'value').set;
  setter.call(this, before + text);
  this.dispatchEvent(new win.InputEvent('input', { bubbles: true, inputType: 'insertText', data: text }));
  return 'set';
}`;

/**
 * The interactive live view's script (takeover mode). Relays the supervisor's mouse (move, down,
 * up), wheel and keyboard (keydown/keyup; a paste is sent as text) on the screencast image to
 * `POST /takeover/<id>/input`, at fractions of the image (the jail-service maps them to CSS
 * pixels, so the frame's device scale and on-screen size do not matter). Events queue while one
 * request is in flight and go in the next one; a request that fails is shown under the screen
 * (never resent). The view ends when the server says the takeover is over, not on a missed poll.
 * "Type into the page" (a field with Send and Enter, Backspace and Tab buttons) sends text and
 * keys the same way. Only that and input on the screen are relayed: the hand-back note is sent
 * once, when the supervisor presses Hand back, with `save_session` when a profile name is given.
 * A refused hand-back (e.g. the login could not be saved) is shown and nothing ends.
 * The landing page uses only the deadline part.
 */
export const takeoverScript = `(() => {
  // The deadline in the supervisor's own time: "expires in 4 min (12:34)", kept current.
  const deadline = document.querySelector('[data-takeover-deadline]');
  if (deadline) {
    const endsAt = Date.now() + Number(deadline.getAttribute('data-takeover-left-ms') || 0);
    const clock = new Date(endsAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    const show = () => {
      const left = endsAt - Date.now();
      const minutes = Math.round(left / 60000);
      deadline.textContent = left <= 0 ? 'the time is up (' + clock + ')'
        : minutes < 1 ? 'expires in under a minute (' + clock + ')'
        : 'expires in ' + minutes + ' min (' + clock + ')';
    };
    show();
    setInterval(show, 10000);
  }
  const root = document.querySelector('[data-takeover]');
  if (!root) return;
  const base = '/takeover/' + encodeURIComponent(root.getAttribute('data-takeover'));
  const screen = root.querySelector('[data-takeover-screen]');
  const banner = root.querySelector('[data-takeover-banner]');
  const form = root.querySelector('[data-takeover-handback]');
  const inputError = root.querySelector('[data-takeover-input-error]');
  let live = true;
  let queue = [];
  let sending = false;
  let lost = 0;
  // Input that did not reach the page is said so, in view, and not sent again: part of it may
  // have been pressed already, and a key pressed twice is worse than one the supervisor repeats.
  const notDelivered = (count, why) => {
    lost += count;
    root.setAttribute('data-takeover-input-lost', String(lost));
    inputError.textContent = 'Some of your input did not reach the page (' + why + '). Look at the screen before you go on.';
    inputError.hidden = false;
  };
  const send = () => {
    if (sending || queue.length === 0 || !live) return;
    const events = queue.splice(0, 200);
    sending = true;
    fetch(base + '/input', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ events }),
    }).then((response) => {
      if (response.ok) return;
      if (response.status === 409) return end('This takeover has ended.');
      notDelivered(events.length, 'HTTP ' + response.status);
    }, () => notDelivered(events.length, 'no answer'))
      .finally(() => { sending = false; send(); });
  };
  const push = (event) => { queue.push(event); send(); };
  const clamp = (value) => Math.min(1, Math.max(0, value));
  const at = (event) => {
    const box = screen.getBoundingClientRect();
    return { x: clamp((event.clientX - box.left) / box.width), y: clamp((event.clientY - box.top) / box.height) };
  };
  const buttons = ['left', 'middle', 'right'];
  const modifiers = (e) => (e.altKey ? 1 : 0) | (e.ctrlKey ? 2 : 0) | (e.metaKey ? 4 : 0) | (e.shiftKey ? 8 : 0);
  let lastMove = 0;
  screen.addEventListener('mousemove', (e) => {
    const now = performance.now();
    if (e.buttons === 0 && now - lastMove < 16) return;
    lastMove = now;
    push({ type: 'mouse', action: 'move', ...at(e) });
  });
  for (const [name, action] of [['mousedown', 'down'], ['mouseup', 'up']]) {
    screen.addEventListener(name, (e) => {
      e.preventDefault();
      if (action === 'down') screen.focus();
      push({ type: 'mouse', action, ...at(e), button: buttons[e.button] || 'left', click_count: Math.min(3, e.detail || 1) });
    });
  }
  screen.addEventListener('contextmenu', (e) => e.preventDefault());
  screen.addEventListener('dragstart', (e) => e.preventDefault());
  // While in control the wheel over the screen scrolls the remote page (ours fits the window);
  // once the takeover ended it scrolls ours again.
  screen.addEventListener('wheel', (e) => {
    if (!live) return;
    e.preventDefault();
    push({ type: 'wheel', ...at(e), delta_x: e.deltaX, delta_y: e.deltaY });
  }, { passive: false });
  const pasting = (e) => (e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'v';
  screen.addEventListener('keydown', (e) => {
    if (pasting(e)) return;
    e.preventDefault();
    const printable = e.key.length === 1 && !e.ctrlKey && !e.metaKey;
    push({ type: 'key', action: 'down', key: e.key.slice(0, 32), code: e.code.slice(0, 32), modifiers: modifiers(e), ...(printable ? { text: e.key } : {}) });
  });
  screen.addEventListener('keyup', (e) => {
    if (pasting(e)) return;
    e.preventDefault();
    push({ type: 'key', action: 'up', key: e.key.slice(0, 32), code: e.code.slice(0, 32), modifiers: modifiers(e) });
  });
  screen.addEventListener('paste', (e) => {
    e.preventDefault();
    const text = e.clipboardData ? e.clipboardData.getData('text/plain') : '';
    if (text) push({ type: 'text', text: text.slice(0, 10000) });
  });
  // "Type into the page", for a phone (no keyboard while the screen has focus): Send (or the
  // on-screen keyboard's own Enter) inserts the field's text at the page's caret, as a paste does;
  // Enter, Backspace and Tab first send any text still in the field, then press that key. The
  // buttons keep the focus in the field, so the on-screen keyboard stays up.
  const typer = root.querySelector('[data-takeover-type]');
  const typed = typer.querySelector('[name="type_text"]');
  const sendTyped = () => {
    if (typed.value) push({ type: 'text', text: typed.value.slice(0, 10000) });
    typed.value = '';
  };
  typer.addEventListener('submit', (e) => {
    e.preventDefault();
    sendTyped();
  });
  for (const button of typer.querySelectorAll('button')) {
    button.addEventListener('mousedown', (e) => e.preventDefault());
    const key = button.getAttribute('data-takeover-key');
    if (!key) continue;
    button.addEventListener('click', () => {
      sendTyped();
      for (const action of ['down', 'up']) push({ type: 'key', action, key, code: key, modifiers: 0 });
    });
  }
  // The end: no red frame and no instructions or deadline; the banner and the answer under Hand
  // back say so, in view.
  const done = form.querySelector('[data-takeover-done]');
  const end = (text) => {
    live = false;
    banner.textContent = text;
    banner.classList.add('ended');
    root.classList.add('ended');
    root.querySelector('[data-takeover-info]').hidden = true;
    form.querySelector('button').disabled = true;
    for (const control of typer.querySelectorAll('input, button')) control.disabled = true;
    done.textContent = text;
    done.hidden = false;
    done.scrollIntoView({ block: 'nearest' });
  };
  const nameField = form.querySelector('[name="session_name"]');
  const originsField = form.querySelector('[name="session_origins"]');
  const error = form.querySelector('[data-takeover-error]');
  const fail = (text) => {
    error.textContent = text;
    error.hidden = false;
  };
  // Until the supervisor edits the origins, they follow the page the clone shows now.
  let originsEdited = false;
  originsField.addEventListener('input', () => { originsEdited = true; });
  nameField.addEventListener('focus', async () => {
    if (originsEdited) return;
    const response = await fetch(base + '/origin').catch(() => null);
    const body = response && response.ok ? await response.json() : null;
    if (body && body.origin && !originsEdited) originsField.value = body.origin;
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.hidden = true;
    const note = form.querySelector('[name="note"]').value.trim();
    const name = nameField.value.trim();
    const origins = originsField.value.split(/[\\s,]+/).filter(Boolean);
    if (name && origins.length === 0) return fail('Name at least one origin to save, e.g. https://example.com.');
    const request = { ...(note ? { note } : {}), ...(name ? { save_session: { name, origins } } : {}) };
    const button = form.querySelector('button');
    button.disabled = true;
    const response = await fetch(base + '/hand-back', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
    }).catch(() => null);
    if (response && response.ok) {
      end('Handed back: the task continues without you.');
      root.setAttribute('data-takeover-ended', 'handed-back');
      return;
    }
    // Not handed back: the supervisor fixes the name or origins, or clears the name and retries.
    const body = response ? await response.json().catch(() => null) : null;
    const message = body && body.error && body.error.message ? body.error.message : 'no answer';
    fail('Not handed back: ' + (name ? 'the login was not saved: ' : '') + message + ' (' + (response ? response.status : 'network') + ').');
    root.setAttribute('data-takeover-failed', body && body.error && body.error.code ? body.error.code : 'error');
    button.disabled = !live;
  });
  // Ended only on the server's word: an answer that the takeover is over, or that this session is
  // not (or no longer) in it. A poll with no answer, a busy server or a rate limit changes nothing.
  const poll = setInterval(async () => {
    const response = await fetch(base + '/status').catch(() => null);
    if (!response) return;
    const over = [403, 404, 409].includes(response.status);
    const body = response.ok ? await response.json().catch(() => null) : null;
    if (!over && !(body && body.active === false)) return;
    clearInterval(poll);
    if (live) end('This takeover has ended.');
  }, 2000);
})();
`;

/**
 * The live view's script. Follows the task's event stream (replayed from the task's first event):
 * a step's line is written, or rewritten, when the step ends, so a step shown `pending` at page
 * load gets its outcome; an earlier step still `pending` once a later one exists is marked
 * unfinished. When the task ends, the screencast (whose feed ends with it) is replaced by the
 * final screenshot, and the result is shown.
 */
export const liveScript = `(() => {
  const root = document.querySelector('[data-live]');
  if (!root) return;
  const id = root.getAttribute('data-live');
  const base = '/dashboard/tasks/' + encodeURIComponent(id);
  const list = root.querySelector('[data-live-steps]');
  const status = root.querySelector('[data-live-status]');
  const badge = (text) => {
    const span = document.createElement('span');
    span.className = 'badge s-' + text;
    span.textContent = text.replaceAll('_', ' ');
    return span;
  };
  const element = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  // The feed heals itself: reopen it on error, or when no frame arrived within 4 s (the
  // jail-service may have been busy, e.g. navigating to the start URL), while the task runs.
  let screen = root.querySelector('[data-live-screen]');
  if (screen) {
    const feed = screen.getAttribute('src');
    let attempts = 0;
    const reopen = () => {
      if (root.hasAttribute('data-live-ended') || attempts >= 30) return;
      attempts += 1;
      screen.setAttribute('src', feed + '?attempt=' + attempts);
    };
    screen.addEventListener('error', () => setTimeout(reopen, 1000));
    const watchdog = setInterval(() => {
      if (root.hasAttribute('data-live-ended') || screen.naturalWidth > 0) clearInterval(watchdog);
      else reopen();
    }, 4000);
  }
  const markUnfinished = (before) => {
    for (const item of list.querySelectorAll('li[data-step]')) {
      if (Number(item.getAttribute('data-step')) >= before) continue;
      const pending = item.querySelector('.badge.s-pending');
      if (pending) pending.replaceWith(badge('unfinished'));
    }
  };
  const source = new EventSource(base + '/events');
  source.addEventListener('step', (message) => {
    const step = JSON.parse(message.data);
    const item = document.createElement('li');
    item.setAttribute('data-step', String(step.step));
    item.append('Step ' + step.step + ' ', badge(step.outcome), ' ');
    item.append(element('span', 'mono', step.actions.join(', ')));
    if (step.thought) item.append(element('div', 'muted', step.thought));
    const existing = list.querySelector('[data-step="' + step.step + '"]');
    if (existing) existing.replaceWith(item);
    else {
      const later = [...list.children].find((li) => Number(li.getAttribute('data-step')) > step.step);
      list.insertBefore(item, later ?? null);
    }
    markUnfinished(step.step);
  });
  const showFinal = (result) => {
    const holder = screen ? screen.parentElement : root.firstElementChild;
    let final;
    if (result.final_screenshot_path) {
      final = element('img', 'screen');
      final.alt = 'The final screen of the task';
      final.src = base + '/final.jpg?ended=1';
    } else final = element('p', 'muted card', 'The task ended without a final screenshot.');
    final.setAttribute('data-live-final', '');
    if (screen) screen.replaceWith(final);
    else holder.replaceChildren(final);
    screen = null;
    const card = element('section', 'card');
    card.setAttribute('data-live-result', '');
    card.append(element('h2', '', 'Result'));
    const line = element('p');
    line.append(badge(result.status), ' ', result.summary ?? '');
    card.append(line);
    if (result.result_data !== null && result.result_data !== undefined)
      card.append(element('pre', 'mono', JSON.stringify(result.result_data, null, 2)));
    if (result.error)
      card.append(element('p', 'error-text', result.error.code + ': ' + result.error.message));
    status.closest('section').after(card);
  };
  // needs_user comes and goes (events replay in order, so the last one wins): the Take over
  // control follows it.
  source.addEventListener('status', (message) => {
    const data = JSON.parse(message.data);
    status.replaceChildren(badge(data.status));
    showApproval(data.status === 'awaiting_approval' ? data.approval : null);
    const offered = root.querySelector('[data-live-takeover]');
    if (data.status !== 'needs_user') return void offered?.remove();
    if (offered) return;
    const notice = element('div', 'notice');
    notice.setAttribute('data-live-takeover', '');
    notice.append(element('p', '', 'This task needs a person (' + String(data.reason || 'takeover').replaceAll('_', ' ') + '). The model waits until you hand back.'));
    const form = element('form');
    form.method = 'post';
    form.action = base + '/takeover';
    form.append(element('button', '', 'Take over'));
    notice.append(form);
    status.closest('section').append(notice);
  });
  // awaiting_approval comes and goes like needs_user: the notice links to the approval.
  const showApproval = (approval) => {
    const shown = root.querySelector('[data-live-approval]');
    if (shown && (!approval || shown.getAttribute('data-live-approval') !== approval.id)) shown.remove();
    if (!approval || (shown && shown.isConnected)) return;
    const notice = element('div', 'notice');
    notice.setAttribute('data-live-approval', approval.id);
    notice.append(element('p', '', "Waiting for a supervisor's approval (" + String(approval.kind).replaceAll('_', ' ') + '): ' + approval.reason));
    if (approval.action !== null) notice.append(element('p', 'mono', JSON.stringify(approval.action)));
    const link = element('a', '', 'Answer approval ' + approval.id.slice(0, 8));
    link.href = '/dashboard/approvals#approval-' + approval.id;
    notice.append(link);
    status.closest('section').append(notice);
  };
  source.addEventListener('result', (message) => {
    const result = JSON.parse(message.data);
    showApproval(null);
    status.replaceChildren(badge(result.status));
    root.querySelector('[data-live-controls]')?.remove();
    root.setAttribute('data-live-ended', result.status);
    source.close();
    markUnfinished(Number.MAX_SAFE_INTEGER);
    if (!root.querySelector('[data-live-result]')) showFinal(result);
  });
})();
`;

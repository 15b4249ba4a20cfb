import { html } from 'hono/html';
import { type StepCardData, stepCard } from './step-card.js';

/**
 * Replay markup: a scrubber (range input, previous/next buttons, keyboard ← →) and one frame per
 * step. Without script every frame stays visible, so the page still reads top to bottom.
 */
export function replayBody(cards: StepCardData[]) {
  if (cards.length === 0) return html`<p class="muted">This task has no recorded steps.</p>`;
  return html`<div class="replay" data-replay>
<div class="replay-bar card">
<button type="button" class="secondary" data-replay-prev aria-label="Previous step">◀</button>
<label class="grow">Step<input type="range" min="1" max="${cards.length}" value="1" step="1" data-replay-range aria-label="Step"></label>
<button type="button" class="secondary" data-replay-next aria-label="Next step">▶</button>
<output data-replay-label aria-live="polite">Step 1 of ${cards.length}</output>
</div>
${cards.map((card, index) => html`<section class="frame" data-frame="${index + 1}" aria-label="Step ${card.step.index}">${stepCard(card)}</section>`)}
</div>`;
}

/** The replay behaviour; served as /dashboard/assets/replay.js and inlined in exported reports. */
export const replayScript = `(() => {
  const root = document.querySelector('[data-replay]');
  if (!root) return;
  const frames = [...root.querySelectorAll('[data-frame]')];
  const range = root.querySelector('[data-replay-range]');
  const label = root.querySelector('[data-replay-label]');
  let current = 1;
  const show = (n) => {
    current = Math.min(frames.length, Math.max(1, n));
    frames.forEach((frame, i) => { frame.hidden = i + 1 !== current; });
    range.value = String(current);
    label.textContent = 'Step ' + current + ' of ' + frames.length;
  };
  range.addEventListener('input', () => show(Number(range.value)));
  root.querySelector('[data-replay-prev]').addEventListener('click', () => show(current - 1));
  root.querySelector('[data-replay-next]').addEventListener('click', () => show(current + 1));
  document.addEventListener('keydown', (event) => {
    if (event.target instanceof HTMLInputElement && event.target !== range) return;
    if (event.target === range) return;
    if (event.key === 'ArrowLeft') { show(current - 1); event.preventDefault(); }
    if (event.key === 'ArrowRight') { show(current + 1); event.preventDefault(); }
    if (event.key === 'Home') { show(1); event.preventDefault(); }
    if (event.key === 'End') { show(frames.length); event.preventDefault(); }
  });
  show(1);
})();
`;

// Dispatches PageDriver input steps through puppeteer's CDP mouse and keyboard, with no delays,
// then settles: one page task (or one frame) so that navigations the input started are seen.
import type { KeyInput, Page } from 'puppeteer-core';
import type { InputOutcome, InputStep, PerformOptions } from '../page-driver.js';
import { frameSession } from './frame-walk.js';
import { watchNavigation } from './navigation-watch.js';
import type { PageScript } from './page-script.js';

/** Resolves after the page ran one macrotask: events the input queued have been handled. */
const SETTLE_TASK = 'new Promise((resolve) => setTimeout(resolve, 0))';
/**
 * Resolves after the next frame (compositor-thread scrolls are applied by then), or after 100 ms
 * when the page renders no frames (a background tab of an attached browser).
 */
const SETTLE_FRAME = `new Promise((resolve) => {
  const fallback = setTimeout(resolve, 100);
  requestAnimationFrame(() => setTimeout(() => { clearTimeout(fallback); resolve(); }, 0));
})`;

/** Runs the steps in order, stopping between steps once `signal` is aborted. */
export async function performInput(
  page: Page,
  script: PageScript,
  steps: readonly InputStep[],
  options: PerformOptions,
): Promise<InputOutcome> {
  const watch = watchNavigation(page);
  try {
    await dispatchAll(page, steps, options.signal);
    // The settle script may die with its document when the input navigated; that is fine.
    const settled = script
      .evaluate(options.settle === 'frame' ? SETTLE_FRAME : SETTLE_TASK)
      .catch(() => undefined);
    await Promise.race([settled, watch.whenRequested]);
    return { navigated: await watch.settle(options.navigationTimeoutMs) };
  } finally {
    watch.dispose();
  }
}

/**
 * Sends the steps in order. Pointer and key events are pipelined like puppeteer's own click (CDP
 * keeps their order; awaiting each would cost a frame per mouse move). Typing and stepped moves
 * are awaited one by one: the former must stay stoppable, the latter must not be coalesced.
 */
async function dispatchAll(page: Page, steps: readonly InputStep[], signal: AbortSignal) {
  const inFlight: Promise<void>[] = [];
  // Whether the focus may have moved since keys were last sent: a click in this batch, or one in
  // the batch before (a separate request), so it starts true.
  let focusMayMove = true;
  for (const step of steps) {
    signal.throwIfAborted();
    const keys = step.kind === 'type-text' || step.kind === 'key-down';
    if (keys && focusMayMove) {
      // A click may have moved the focus into another process's frame: keys wait until it has.
      await Promise.all(inFlight.splice(0));
      await focusSettled(page);
    }
    const click = step.kind === 'mouse-down' || step.kind === 'mouse-up';
    focusMayMove = click || (focusMayMove && !keys);
    const sequential = step.kind === 'type-text' || (step.kind === 'mouse-move' && step.steps);
    if (sequential) await Promise.all(inFlight.splice(0));
    const dispatched = dispatch(page, step, signal);
    if (sequential) {
      await dispatched;
      continue;
    }
    // Handled here so a rejection while we await something else is not reported as unhandled;
    // Promise.all below still sees it.
    dispatched.catch(() => {});
    inFlight.push(dispatched);
  }
  await Promise.all(inFlight);
}

async function dispatch(page: Page, step: InputStep, signal: AbortSignal): Promise<void> {
  switch (step.kind) {
    case 'mouse-move':
      return page.mouse.move(step.x, step.y, step.steps ? { steps: step.steps } : {});
    case 'mouse-down':
      return page.mouse.down({ button: step.button, clickCount: step.clickCount });
    case 'mouse-up':
      return page.mouse.up({ button: step.button, clickCount: step.clickCount });
    case 'wheel':
      return page.mouse.wheel({ deltaX: step.deltaX, deltaY: step.deltaY });
    case 'key-down':
      return page.keyboard.down(step.key as KeyInput);
    case 'key-up':
      return page.keyboard.up(step.key as KeyInput);
    case 'type-text':
      return typeText(page, step.text, signal);
  }
}

/** Longest wait for the frames' renderers to answer before keys are sent anyway. */
const FOCUS_BOUND_MS = 500;

/**
 * Resolves once every out-of-process frame's renderer has answered one round trip. A click into
 * such a frame moves the focus there, and the renderer tells the browser on another channel than
 * the click's acknowledgement: keys sent at once can still go to the frame focused before (the
 * first characters of a `type` lost). Its answer comes after the renderer handled the click.
 */
async function focusSettled(page: Page): Promise<void> {
  const root = frameSession(page.mainFrame());
  const sessions = new Set(
    page
      .frames()
      .map(frameSession)
      .filter((session) => session !== root),
  );
  if (sessions.size === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, FOCUS_BOUND_MS);
  });
  const answered = Promise.all(
    [...sessions].map((session) =>
      session.send('Runtime.evaluate', { expression: '0' }).catch(() => undefined),
    ),
  );
  try {
    await Promise.race([answered, bound]);
  } finally {
    clearTimeout(timer);
  }
}

/** Characters pipelined per round trip while typing; the signal is checked between chunks. */
const TYPE_CHUNK = 32;

/**
 * Types like keyboard.type (a key press per US-layout character, Input.insertText for everything
 * else, so non-ASCII works) but pipelines each chunk — CDP keeps the order, and awaiting every
 * event would cost a renderer round trip per key — and stays stoppable between chunks, so a
 * timed-out call does not keep typing into whatever the next action focuses.
 */
async function typeText(page: Page, text: string, signal: AbortSignal): Promise<void> {
  const characters = [...text];
  for (let start = 0; start < characters.length; start += TYPE_CHUNK) {
    signal.throwIfAborted();
    const sent: Promise<void>[] = [];
    for (const character of characters.slice(start, start + TYPE_CHUNK)) {
      if (isKeyCharacter(character)) {
        const key = character as KeyInput;
        sent.push(page.keyboard.down(key), page.keyboard.up(key));
      } else {
        sent.push(page.keyboard.sendCharacter(character));
      }
    }
    await Promise.all(sent);
  }
}

/** Printable ASCII and newlines have keys in puppeteer's US layout (a newline presses Enter). */
function isKeyCharacter(character: string): boolean {
  return /^[\x20-\x7e\r\n]$/.test(character);
}

// A capture the compositor leaves waiting. `Page.captureScreenshot` asks the compositor for its
// next frame, and a compositor gone idle (a hidden page for certain, measured; once in a fleet
// clone's CI run, a visible one) answers none: the capture waits until the tool's 15 s bound and
// the step fails TOOL_TIMEOUT. Bringing the page to the front and a short screencast make it draw
// again; then the waiting capture answers, or a second one does (capture-stall.test.ts).
import { sleep } from '@clawdie/kit/timing';
import type { Logger } from 'pino';
import type { Page, Protocol } from 'puppeteer-core';
import { bounded } from './bounded.js';

/** A healthy capture answers in 30–200 ms, under load within about 1 s. */
export const CAPTURE_STALL_MS = 2500;

/** How long the waking screencast runs at most (one frame is enough). */
const WAKE_FRAME_MS = 250;

export interface StallGuard {
  /** Without an answer this long, the capture is taken as stalled. */
  stallMs: number;
  /** Makes the compositor draw again. Must not throw. */
  wake(): Promise<void>;
}

/**
 * Runs `take`; when it has not answered within the guard's stall time, wakes the page once and
 * takes again: the first answer of the two is returned (the waiting one usually answers first).
 * Not bounded itself: the caller's tool timeout still ends a capture nothing wakes.
 */
export async function unstalled<T>(take: () => Promise<T>, guard: StallGuard): Promise<T> {
  const first = take();
  let timer: NodeJS.Timeout | undefined;
  const stalled = await Promise.race([
    first.then(
      () => false,
      () => false,
    ),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), guard.stallMs);
    }),
  ]);
  clearTimeout(timer);
  if (!stalled) return first;
  await guard.wake();
  const second = take();
  // Whichever answers first; the other one's late failure must not surface unhandled.
  first.catch(() => undefined);
  second.catch(() => undefined);
  return Promise.any([first, second]).catch((error: unknown) => {
    throw error instanceof AggregateError ? error.errors[error.errors.length - 1] : error;
  });
}

/**
 * Wakes a page's compositor: brings the page to the front and runs a tiny screencast on a session
 * of its own until its first frame (at most WAKE_FRAME_MS). Each step bounded; never throws.
 */
export async function wakeCompositor(page: Page, logger: Logger): Promise<void> {
  logger.warn({ stallMs: CAPTURE_STALL_MS }, 'screenshot stalled; waking the compositor');
  await bounded(page.bringToFront(), logger, 'bring the page to the front', 1000);
  await bounded(screencastFrame(page), logger, 'waking screencast', 1500);
}

async function screencastFrame(page: Page): Promise<void> {
  const session = await page.createCDPSession();
  try {
    let framed: () => void = () => undefined;
    const frame = new Promise<void>((resolve) => {
      framed = resolve;
    });
    session.on('Page.screencastFrame', (event: Protocol.Page.ScreencastFrameEvent) => {
      void session
        .send('Page.screencastFrameAck', { sessionId: event.sessionId })
        .catch(() => undefined);
      framed();
    });
    await session.send('Page.startScreencast', {
      format: 'jpeg',
      quality: 10,
      maxWidth: 64,
      maxHeight: 64,
      everyNthFrame: 1,
    });
    await Promise.race([frame, sleep(WAKE_FRAME_MS)]);
    await session.send('Page.stopScreencast');
  } finally {
    await session.detach().catch(() => undefined);
  }
}

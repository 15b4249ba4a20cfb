// A capture the compositor leaves waiting. `Page.captureScreenshot` asks the compositor for its
// next frame, and a compositor gone idle answers none (a hidden page, measured; the likeliest
// reading of a fleet clone's capture that took over 15 s in CI): the capture waits until the
// tool's 15 s bound and the step fails TOOL_TIMEOUT. Bringing the page to the front and a short
// screencast make it draw again, and the waiting capture then answers (capture-stall.test.ts).
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
 * Runs `capture`; when it has not answered within the guard's stall time, wakes the page once and
 * goes on waiting for the same capture. (Taking another would not help: puppeteer runs one
 * screenshot of a browser context at a time, so a second one starts only after the first.) Not
 * bounded itself: the caller's tool timeout still ends a capture nothing wakes.
 */
export async function unstalled<T>(capture: Promise<T>, guard: StallGuard): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = await Promise.race([
    capture.then(
      () => false,
      () => false,
    ),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), guard.stallMs);
    }),
  ]);
  clearTimeout(timer);
  if (stalled) await guard.wake();
  return capture;
}

/** A page's capture guarded by `unstalled`, woken by `wakeCompositor`. */
export function unstalledCapture<T>(page: Page, capture: Promise<T>, logger: Logger): Promise<T> {
  return unstalled(capture, {
    stallMs: CAPTURE_STALL_MS,
    wake: () => wakeCompositor(page, logger),
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

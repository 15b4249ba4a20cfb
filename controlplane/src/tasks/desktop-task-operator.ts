import { setTimeout as sleep } from 'node:timers/promises';
import type { BrowserOperator } from '../browser/operator/browser-operator.js';
import { isAbortError } from '../errors.js';

export interface DesktopTaskOperatorOptions {
  /** Longest wait for the display to show the browser's page before the first screenshot. */
  settleMs?: number;
  pollMs?: number;
}

/**
 * The loop's operator for a desktop task: `desktop` (the whole display), whose first screenshot
 * waits until a window on the display is titled like the page `browser` has open and two frames in
 * a row are the same. The jail-service answers a navigation once the page has loaded, but headful
 * Chromium repaints later: its X window name changes first and the pixels follow up to ~200 ms
 * later (measured on Xvfb), so the model's first look would otherwise be of the previous page.
 * Best effort: a browser without a title, a timeout or a failed probe just proceeds.
 *
 * A display has no DOM: nothing can say which frame or field a point or the focus is in, so
 * `landing` answers `target: null` and no document identity, which the policy treats as unknown
 * (host rules see only the display's URL; a secret is never typed: its field cannot be checked).
 */
export function createDesktopTaskOperator(
  desktop: BrowserOperator,
  browser: BrowserOperator,
  options: DesktopTaskOperatorOptions = {},
): BrowserOperator {
  let settled: Promise<void> | null = null;
  return {
    ...desktop,
    async landing(_action, signal) {
      const { url } = await desktop.state(signal);
      return { url, document_id: '', target: null, source: null };
    },
    async screenshot(signal, shotOptions) {
      settled ??= untilPageShown(desktop, browser, options, signal);
      await settled;
      return desktop.screenshot(signal, shotOptions);
    },
  };
}

async function untilPageShown(
  desktop: BrowserOperator,
  browser: BrowserOperator,
  options: DesktopTaskOperatorOptions,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = performance.now() + (options.settleMs ?? 5000);
  try {
    const { title, url } = await browser.state(signal);
    if (!title || url === 'about:blank') return;
    const pause = () => sleep(options.pollMs ?? 100, undefined, signal ? { signal } : {});
    while (!(await desktop.state(signal)).title.includes(title)) {
      if (performance.now() >= deadline) return;
      await pause();
    }
    let previous = (await desktop.screenshot(signal)).jpeg;
    while (performance.now() < deadline) {
      await pause();
      const frame = (await desktop.screenshot(signal)).jpeg;
      if (frame.equals(previous)) return;
      previous = frame;
    }
  } catch (error) {
    if (isAbortError(error) || signal?.aborted) throw error;
  }
}

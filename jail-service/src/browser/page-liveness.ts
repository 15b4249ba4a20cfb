// Tracks whether the page's renderer can answer: a crash makes every pending and later call fail
// at once (instead of waiting for its timeout) until a navigation brings up a new renderer.
import type { Logger } from 'pino';
import type { Page } from 'puppeteer-core';
import { BrowserUnavailableError } from '../errors.js';

export interface PageLiveness {
  /** False while the renderer is crashed, and for good once the page is closed. */
  alive(): boolean;
  /**
   * Runs `work` unless the page is unusable; rejects with BrowserUnavailableError right away, or
   * as soon as the page crashes or closes while `work` is pending.
   */
  guard<T>(work: () => Promise<T>): Promise<T>;
}

export function trackLiveness(page: Page, logger: Logger): PageLiveness {
  let crashed = false;
  let closed = false;
  const waiters = new Set<(error: BrowserUnavailableError) => void>();

  const problem = (): BrowserUnavailableError | undefined => {
    if (closed) return new BrowserUnavailableError('the page was closed');
    if (crashed) {
      return new BrowserUnavailableError('the page crashed; navigate to load it in a new renderer');
    }
    return undefined;
  };
  const failPending = () => {
    const error = problem();
    if (!error) return;
    for (const fail of waiters) fail(error);
    waiters.clear();
  };

  page.on('error', (error) => {
    crashed = true;
    logger.error({ err: error }, 'page crashed');
    failPending();
  });
  page.on('close', () => {
    closed = true;
    failPending();
  });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) crashed = false;
  });

  return {
    alive: () => !crashed && !closed,
    guard<T>(work: () => Promise<T>): Promise<T> {
      const error = problem();
      if (error) return Promise.reject(error);
      return new Promise<T>((resolve, reject) => {
        waiters.add(reject);
        work()
          .then(resolve, reject)
          .finally(() => waiters.delete(reject));
      });
    },
  };
}

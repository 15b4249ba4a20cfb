import type { CDPSession } from 'puppeteer-core';

/** Evaluates JavaScript source in the page's main world over one CDP session. */
export interface PageScript {
  evaluate<T>(expression: string): Promise<T>;
}

/**
 * `Runtime.evaluate` with `returnByValue` and `awaitPromise`: one round trip, independent of
 * puppeteer's execution-context bookkeeping, so it works right after a navigation commits.
 * Throws an Error with the page's exception text when the script throws.
 */
export function createPageScript(session: CDPSession): PageScript {
  return {
    async evaluate<T>(expression: string): Promise<T> {
      const reply = await session.send('Runtime.evaluate', {
        expression,
        returnByValue: true,
        awaitPromise: true,
      });
      if (reply.exceptionDetails) {
        const details = reply.exceptionDetails;
        throw new Error(`page script failed: ${details.exception?.description ?? details.text}`);
      }
      return reply.result.value as T;
    },
  };
}

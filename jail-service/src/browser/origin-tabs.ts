// Adapter: a short-lived second tab in the agent's browser context that loads each origin without
// a request to the site: its document request is answered locally (Fetch interception) with an
// empty page, every other request fails, and service workers are bypassed, so no script of the
// site runs there. Storage of the origin (localStorage, IndexedDB) is shared with the agent's page,
// which is never navigated.
import type { Browser, CDPSession, Page } from 'puppeteer-core';
import { ActionFailedError } from '../errors.js';

const EMPTY_DOCUMENT = Buffer.from('<!doctype html><title>session</title>').toString('base64');

export interface OriginTabs {
  /** Runs `each` in turn with the tab on `${origin}/` for every origin; closes the tab after. */
  forEach<T>(
    origins: readonly string[],
    each: (cdp: CDPSession, origin: string) => Promise<T>,
  ): Promise<T[]>;
}

export function createOriginTabs(browser: Browser, page: Page, timeoutMs: number): OriginTabs {
  return {
    async forEach(origins, each) {
      if (origins.length === 0) return [];
      const tab = await browser.newPage();
      try {
        const cdp = await tab.createCDPSession();
        await cdp.send('Network.enable');
        await cdp.send('Network.setBypassServiceWorker', { bypass: true });
        await cdp.send('Fetch.enable', {
          patterns: [{ urlPattern: '*', requestStage: 'Request' }],
        });
        cdp.on('Fetch.requestPaused', (event) => {
          const document = event.resourceType === 'Document';
          void (
            document
              ? cdp.send('Fetch.fulfillRequest', {
                  requestId: event.requestId,
                  responseCode: 200,
                  responseHeaders: [{ name: 'content-type', value: 'text/html' }],
                  body: EMPTY_DOCUMENT,
                })
              : cdp.send('Fetch.failRequest', {
                  requestId: event.requestId,
                  errorReason: 'BlockedByClient',
                })
          ).catch(() => undefined);
        });
        const results = [];
        for (const origin of origins) {
          await tab.goto(`${origin}/`, { waitUntil: 'load', timeout: timeoutMs });
          results.push(await each(cdp, origin));
        }
        return results;
      } finally {
        // Everything the caller needed is done (IndexedDB transactions committed): the tab closes
        // in the background rather than on the first screenshot's path.
        void tab.close().catch(() => undefined);
        await page.bringToFront().catch(() => undefined);
      }
    },
  };
}

/** `Runtime.evaluate` awaiting a promise by value; the page's exception becomes an error. */
export async function evaluateIn<T>(cdp: CDPSession, expression: string): Promise<T> {
  const reply = await cdp.send('Runtime.evaluate', {
    expression,
    returnByValue: true,
    awaitPromise: true,
  });
  if (reply.exceptionDetails) {
    // Only the exception's class: its message may quote stored data (a RegExp source, a key).
    const kind = reply.exceptionDetails.exception?.className ?? 'an exception';
    throw new ActionFailedError(`session storage script failed with ${kind}`);
  }
  return reply.result.value as T;
}

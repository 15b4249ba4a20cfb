// Adapter: BrowserSessionState over CDP. Cookies through the browser target's Storage domain.
// localStorage is read through a short-lived second tab whose document request for the origin is
// answered locally by Fetch interception (no request reaches the site), and written by a one-shot
// script on the agent's page (storage-seeds.ts). The agent's own page is never navigated.
import type { Browser, CDPSession, Page } from 'puppeteer-core';
import type { OriginStorage, SessionCookie } from '../api/index.js';
import { BadRequestError } from '../errors.js';
import { type BrowserSessionState, originOfCookie } from '../session/session-state.js';
import { createStorageSeeds } from './storage-seeds.js';

interface CdpCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  session: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

const EMPTY_DOCUMENT = Buffer.from('<!doctype html><title>session</title>').toString('base64');
const READ_STORAGE = `Object.keys(localStorage).map((key) => ({ key, value: localStorage.getItem(key) ?? '' }))`;

export function createCdpSessionState(options: {
  browser: Browser;
  page: Page;
  timeoutMs: number;
}): BrowserSessionState {
  const { browser, page, timeoutMs } = options;
  const seeds = createStorageSeeds(page);
  let browserSession: Promise<CDPSession> | undefined;
  const storage = () => {
    browserSession ??= browser.target().createCDPSession();
    return browserSession;
  };

  async function withOriginTabs<T>(
    origins: readonly string[],
    each: (cdp: CDPSession, origin: string) => Promise<T>,
  ): Promise<T[]> {
    if (origins.length === 0) return [];
    const tab = await browser.newPage();
    try {
      const cdp = await tab.createCDPSession();
      await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] });
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
      const results: T[] = [];
      for (const origin of origins) {
        await tab.goto(`${origin}/`, { waitUntil: 'load', timeout: timeoutMs });
        results.push(await each(cdp, origin));
      }
      return results;
    } finally {
      await tab.close().catch(() => undefined);
      await page.bringToFront().catch(() => undefined);
    }
  }

  return {
    async exportSession(origins) {
      const cdp = await storage();
      const { cookies } = (await cdp.send('Storage.getCookies')) as { cookies: CdpCookie[] };
      const chosen = cookies.filter((cookie) => originOfCookie(cookie, origins)).map(toBundle);
      const stored = await withOriginTabs(origins, async (tab, origin): Promise<OriginStorage> => {
        const read = await tab.send('Runtime.evaluate', {
          expression: READ_STORAGE,
          returnByValue: true,
        });
        return { origin, localStorage: read.result.value as OriginStorage['localStorage'] };
      });
      return { cookies: chosen, origins: stored };
    },

    async importSession(bundle) {
      const origins = bundle.origins.map((entry) => entry.origin);
      const outside = bundle.cookies.filter((cookie) => !originOfCookie(cookie, origins));
      if (outside.length > 0)
        throw new BadRequestError(
          `${outside.length} cookie(s) lie outside the bundle's origins (${origins.join(', ')})`,
        );
      if (bundle.cookies.length > 0) {
        const cdp = await storage();
        const params = bundle.cookies.map((cookie) => toCdpParam(cookie, origins));
        await cdp.send('Storage.setCookies', { cookies: params as never });
      }
      for (const entry of bundle.origins) {
        if (entry.localStorage.length > 0) await seeds.seed(entry.origin, entry.localStorage);
      }
      return { cookies: bundle.cookies.length, origins: bundle.origins.length };
    },
  };
}

function toBundle(cookie: CdpCookie): SessionCookie {
  return {
    name: cookie.name,
    value: cookie.value,
    domain: cookie.domain,
    path: cookie.path,
    ...(cookie.session ? {} : { expires: cookie.expires }),
    httpOnly: cookie.httpOnly,
    secure: cookie.secure,
    ...(cookie.sameSite ? { sameSite: cookie.sameSite } : {}),
  };
}

/** A host-only cookie (no leading dot) is set through its origin's URL so it stays host-only. */
function toCdpParam(cookie: SessionCookie, origins: readonly string[]) {
  const common = {
    name: cookie.name,
    value: cookie.value,
    path: cookie.path,
    httpOnly: cookie.httpOnly,
    secure: cookie.secure,
    ...(cookie.expires !== undefined && cookie.expires > 0 ? { expires: cookie.expires } : {}),
    ...(cookie.sameSite ? { sameSite: cookie.sameSite } : {}),
  };
  if (cookie.domain.startsWith('.')) return { ...common, domain: cookie.domain };
  return { ...common, url: `${originOfCookie(cookie, origins)}${cookie.path}` };
}

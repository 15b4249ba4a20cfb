// Adapter: BrowserSessionState over CDP. Cookies through the browser target's Storage domain.
// localStorage and IndexedDB are read through a short-lived second tab whose document for the
// origin is answered locally (origin-tabs.ts: no request reaches the site). localStorage is
// written by a one-shot script on the agent's page (storage-seeds.ts); IndexedDB is written and
// committed in a helper tab of the origin (origin-seed-tabs.ts) before the import answers. The
// agent's own page is never navigated.

import {
  indexedDbTotals,
  type OriginStorage,
  originIndexedDbSchema,
  SESSION_LIMITS,
  type SessionCookie,
} from '@clawdie/kit/jail-api';
import type { Browser, CDPSession, Page } from 'puppeteer-core';
import { BadRequestError } from '../errors.js';
import { type BrowserSessionState, originOfCookie } from '../session/session-state.js';
import { exportIndexedDbExpression, importIndexedDbExpression } from './indexeddb-script.js';
import { createOriginSeedTabs } from './origin-seed-tabs.js';
import { createOriginTabs, evaluateIn } from './origin-tabs.js';
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

const READ_STORAGE = `Object.keys(localStorage).map((key) => ({ key, value: localStorage.getItem(key) ?? '' }))`;

export function createCdpSessionState(options: {
  browser: Browser;
  page: Page;
  timeoutMs: number;
}): BrowserSessionState {
  const { browser, page, timeoutMs } = options;
  const seeds = createStorageSeeds(page);
  const tabs = createOriginTabs(browser, page, timeoutMs);
  let browserSession: Promise<CDPSession> | undefined;
  const storage = () => {
    browserSession ??= browser.target().createCDPSession();
    return browserSession;
  };
  const seedTabs = createOriginSeedTabs(storage, timeoutMs);

  return {
    async exportSession(origins) {
      const cdp = await storage();
      const { cookies } = (await cdp.send('Storage.getCookies')) as { cookies: CdpCookie[] };
      const chosen = cookies.filter((cookie) => originOfCookie(cookie, origins)).map(toBundle);
      const budget = {
        records: SESSION_LIMITS.indexedDbRecords,
        bytes: SESSION_LIMITS.indexedDbBytes,
      };
      const stored = await tabs.forEach(origins, async (tab, origin): Promise<OriginStorage> => {
        const localStorage = await evaluateIn<OriginStorage['localStorage']>(tab, READ_STORAGE);
        const indexedDB = originIndexedDbSchema.parse(
          JSON.parse(await evaluateIn<string>(tab, exportIndexedDbExpression(budget))),
        );
        const used = indexedDbTotals([indexedDB]);
        budget.records -= used.records;
        budget.bytes -= used.bytes;
        return { origin, localStorage, indexedDB };
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
      const cookiesAndStorage = async () => {
        if (bundle.cookies.length > 0) {
          const cdp = await storage();
          const params = bundle.cookies.map((cookie) => toCdpParam(cookie, origins));
          await cdp.send('Storage.setCookies', { cookies: params as never });
        }
        for (const entry of bundle.origins) {
          if (entry.localStorage.length > 0) await seeds.seed(entry.origin, entry.localStorage);
        }
      };
      // IndexedDB is written and committed now, in a helper tab of the origin: it is the origin's
      // storage, shared with the agent's page, so that page's first script already finds it.
      const withDatabases = bundle.origins.filter((entry) => entry.indexedDB?.databases.length);
      const [, written] = await Promise.all([
        cookiesAndStorage(),
        seedTabs.forEach(
          withDatabases.map((entry) => entry.origin),
          (tab, origin) => {
            const entry = withDatabases.find((candidate) => candidate.origin === origin);
            const databases = entry?.indexedDB?.databases ?? [];
            return evaluateIn<number>(tab, importIndexedDbExpression(databases));
          },
        ),
      ]);
      return {
        cookies: bundle.cookies.length,
        origins: bundle.origins.length,
        indexedDb: {
          databases: indexedDbTotals(withDatabases.map((entry) => entry.indexedDB)).databases,
          records: written.reduce((sum, count) => sum + count, 0),
        },
      };
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

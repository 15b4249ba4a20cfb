// The BrowserSessionState port: reads and writes a browser's login state (cookies and per-origin
// localStorage and IndexedDB) over CDP. The puppeteer adapter is browser/session-state-adapter.ts; routes and
// tests depend only on this file.
import type { SessionBundle, SessionCookie, SessionImportResponse } from '@clawdie/kit/jail-api';

export interface BrowserSessionState {
  /**
   * The cookies whose domain matches one of `origins`' hosts and each origin's localStorage and
   * IndexedDB (databases, stores, indexes, records within SESSION_LIMITS; values that cannot
   * round-trip, such as Blobs and CryptoKeys, and databases beyond the limits are left out and
   * listed in `indexedDB.skipped` by reason). Never navigates the page the agent drives.
   */
  exportSession(origins: readonly string[]): Promise<SessionBundle>;
  /**
   * Sets the bundle's cookies, localStorage and IndexedDB in the browser without a request to any
   * site. Call it before the first navigation: IndexedDB databases (replaced when they exist) are
   * committed before it resolves, so any later document of the origin reads them from its first
   * script; localStorage is set before the origin's first document runs a script. Rejects with a
   * BadRequestError when a cookie lies outside the bundle's origins (nothing is set then).
   */
  importSession(bundle: SessionBundle): Promise<SessionImportResponse>;
}

/** True when a cookie for `domain` (leading dot = domain cookie) is sent to `host`. */
export function cookieMatchesHost(domain: string, host: string): boolean {
  const bare = domain.replace(/^\./, '').toLowerCase();
  const target = host.toLowerCase();
  if (!domain.startsWith('.')) return bare === target;
  return target === bare || target.endsWith(`.${bare}`);
}

/** The origin (of `origins`) a cookie belongs to, or undefined when none of their hosts match. */
export function originOfCookie(
  cookie: Pick<SessionCookie, 'domain'>,
  origins: readonly string[],
): string | undefined {
  return origins.find((origin) => cookieMatchesHost(cookie.domain, new URL(origin).hostname));
}

// Adapter: writes localStorage for an origin the page has not loaded yet, without a request to
// the site: a script evaluated on each new document of the agent's page, in an isolated world the
// page's own scripts cannot see, that acts only in the top frame of exactly that origin, and is
// removed once such a document reached DOMContentLoaded (so it runs once).

import type { OriginStorage } from '@clawdie/kit/jail-api';
import type { CDPSession, Page } from 'puppeteer-core';

const WORLD = 'clawdie-session';

export interface StorageSeeds {
  /** Registers `entries` for `origin`'s next top-level document on the page. */
  seed(origin: string, entries: OriginStorage['localStorage']): Promise<void>;
}

export function createStorageSeeds(page: Page): StorageSeeds {
  let session: Promise<CDPSession> | undefined;
  const pending = new Map<string, string>();
  const open = () => {
    session ??= (async () => {
      const cdp = await page.createCDPSession();
      await cdp.send('Page.enable');
      page.on('domcontentloaded', () => void removeFor(cdp, page.url()));
      return cdp;
    })();
    return session;
  };
  async function removeFor(cdp: CDPSession, url: string): Promise<void> {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      return;
    }
    const identifier = pending.get(origin);
    if (identifier === undefined) return;
    pending.delete(origin);
    await cdp
      .send('Page.removeScriptToEvaluateOnNewDocument', { identifier })
      .catch(() => undefined);
  }
  return {
    async seed(origin, entries) {
      const cdp = await open();
      const earlier = pending.get(origin);
      if (earlier !== undefined)
        await cdp.send('Page.removeScriptToEvaluateOnNewDocument', { identifier: earlier });
      const source = `(() => {
  if (window.top !== window || location.origin !== ${JSON.stringify(origin)}) return;
  for (const [key, value] of ${JSON.stringify(entries.map((entry) => [entry.key, entry.value]))}) localStorage.setItem(key, value);
})();`;
      const { identifier } = await cdp.send('Page.addScriptToEvaluateOnNewDocument', {
        source,
        worldName: WORLD,
      });
      pending.set(origin, identifier);
    },
  };
}

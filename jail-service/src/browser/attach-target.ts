// Attach mode's choice of tab: CLAWDIE_JAIL_CDP_TARGET names the page the jail-service drives in
// a browser someone else runs, by its DevTools target id or by a prefix of its URL, instead of
// the browser's first page. No match is a start-up failure that lists the open tabs.
import type { Browser, Page } from 'puppeteer-core';
import { BrowserUnavailableError } from '../errors.js';

/** One open tab, as DevTools lists it (`/json/list`: `id` and `url`). */
export interface OpenTab {
  targetId: string;
  url: string;
  page: Page;
}

/** The tab whose target id equals `target` or, failing that, the first whose URL starts with it. */
function matchTab(tabs: readonly OpenTab[], target: string): OpenTab | undefined {
  return (
    tabs.find((tab) => tab.targetId === target) ?? tabs.find((tab) => tab.url.startsWith(target))
  );
}

/** Every page of `browser` with its target id (asked of each page's own target over CDP). */
export async function openTabs(browser: Browser): Promise<OpenTab[]> {
  const pages = await browser.pages();
  return Promise.all(
    pages.map(async (page) => {
      const session = await page.target().createCDPSession();
      try {
        const { targetInfo } = await session.send('Target.getTargetInfo');
        return { targetId: targetInfo.targetId, url: targetInfo.url, page };
      } finally {
        await session.detach().catch(() => undefined);
      }
    }),
  );
}

/** The page `target` names; throws BrowserUnavailableError naming the open tabs when none does. */
export async function pickAttachedPage(browser: Browser, target: string): Promise<Page> {
  const tabs = await openTabs(browser);
  const tab = matchTab(tabs, target);
  if (tab) return tab.page;
  const listed = tabs
    .slice(0, 10)
    .map((open) => `${open.targetId} ${open.url}`)
    .join('; ');
  throw new BrowserUnavailableError(
    `CLAWDIE_JAIL_CDP_TARGET=${target} matches no tab (neither a target id nor a URL prefix); open tabs: ${listed || 'none'}`,
  );
}

// The fingerprint a held frame is checked against (tools/held-frame.ts), over puppeteer: the one
// tab, alive, still showing the idle start page (about:blank); no target created, changed or
// gone and no frame navigated or attached since; and — asked of the page, one Runtime.evaluate —
// the same window geometry, visibility and document markup.
import type { Browser } from 'puppeteer-core';
import type { IdleFingerprint } from '../tools/held-frame.js';
import type { PageTabs } from './page-tabs.js';

const PAGE_NOW =
  'JSON.stringify([innerWidth, innerHeight, devicePixelRatio, document.visibilityState, document.documentElement.outerHTML])';

export function idlePageFingerprint(browser: Browser, tabs: PageTabs): IdleFingerprint {
  let changes = 0;
  const changed = () => {
    changes += 1;
  };
  for (const event of ['targetcreated', 'targetchanged', 'targetdestroyed', 'disconnected'])
    browser.on(event as 'targetcreated', changed);
  const root = tabs.active();
  for (const event of ['framenavigated', 'frameattached', 'framedetached', 'close'])
    root.page.on(event as 'close', changed);
  tabs.onSwitch(changed);
  tabs.onClose(changed);
  return async () => {
    const seen = changes;
    if (tabs.list().length !== 1 || tabs.active() !== root || root.page.isClosed()) return null;
    if (!browser.connected || !root.liveness.alive() || root.page.url() !== 'about:blank')
      return null;
    const page = await root.script.evaluate<string>(PAGE_NOW).catch(() => null);
    if (page === null || changes !== seen) return null;
    return `${seen} ${root.targetId} ${JSON.stringify(root.page.viewport())} ${page}`;
  };
}

// Adapter: the tabs of the driven browser and which one is active. The rule (docs/architecture.md,
// "Popups and tabs"): a window the active page's tabs open (window.open, a target=_blank link or
// form) becomes the active page at once; when it closes, its opener (or else the newest tab left)
// becomes active again; at most `maxTabs` are kept, the oldest popups closed first. The first tab
// (the root) is never closed here. Tabs opened by the service itself (session helper tabs) have no
// opener and are not followed.

import { sleep } from '@clawdie/kit/timing';
import type { Logger } from 'pino';
import type { Browser, CDPSession, Dialog, HTTPRequest, Page, Target } from 'puppeteer-core';
import { bounded } from './bounded.js';
import { isMainFrameNavigation } from './navigation-watch.js';
import { type NetworkQuiet, trackNetworkQuiet } from './network-quiet.js';
import { type PageLiveness, trackLiveness } from './page-liveness.js';
import { createPageScript, type PageScript } from './page-script.js';

/** One tab with what the driver needs of it. */
export interface Tab {
  readonly page: Page;
  /** A dedicated CDP session of the page (created while the renderer was idle). */
  readonly session: CDPSession;
  readonly script: PageScript;
  readonly liveness: PageLiveness;
  /** Main-frame navigation requests in flight. */
  readonly inflight: Set<HTTPRequest>;
  /** How long no request of the tab has been in flight. */
  readonly network: NetworkQuiet;
  readonly targetId: string;
  readonly opener: Tab | null;
}

/** Longest wait for an announced window's target to appear. */
const OPEN_TIMEOUT_MS = 2000;
/** Longest wait for a tab whose calls fail to be reported closed. */
const CLOSE_GRACE_MS = 1000;

export interface PageTabs {
  /** The tab actions, screenshots and state go to. */
  active(): Tab;
  /** Every open tab, oldest first (the root first). */
  list(): readonly Tab[];
  /** Resolves once no popup is being adopted (call before using `active()`). */
  ready(): Promise<void>;
  /** `listener(tab)` after the active tab changed; must not throw. */
  onSwitch(listener: (tab: Tab) => void): void;
  /** `listener(tab)` after a tab closed (or was closed); must not throw. */
  onClose(listener: (tab: Tab) => void): void;
  /**
   * True when `tab` is closed or closes within CLOSE_GRACE_MS (its target already gone), after
   * its successor became active; false when it stays open.
   */
  closing(tab: Tab): Promise<boolean>;
  /** Origins of every document a tab showed (top-level or framed), for clearing their storage. */
  visitedOrigins(): ReadonlySet<string>;
  /** Closes every tab but the root and makes the root active. */
  closeExtra(): Promise<void>;
}

export interface PageTabsOptions {
  browser: Browser;
  root: Page;
  viewport: { width: number; height: number; deviceScaleFactor: number };
  maxTabs: number;
  logger: Logger;
  /** Called once per tab before it is used (the network log watches it, file choosers are answered). */
  onPage?: ((page: Page, session: CDPSession) => void) | undefined;
}

export async function createPageTabs(options: PageTabsOptions): Promise<PageTabs> {
  const { browser, logger } = options;
  const tabs: Tab[] = [];
  const switchListeners: ((tab: Tab) => void)[] = [];
  const closeListeners: ((tab: Tab) => void)[] = [];
  const pending = new Set<Promise<unknown>>();
  /** Windows announced (Page.windowOpen) and not adopted yet. */
  const opening = new Set<symbol>();
  const waiters: (() => void)[] = [];
  const wake = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  const origins = new Set<string>();
  const record = (url: string) => {
    if (!/^https?:/i.test(url)) return;
    try {
      origins.add(new URL(url).origin);
    } catch {
      // not a URL with an origin
    }
  };

  const prepare = async (page: Page, opener: Tab | null): Promise<Tab> => {
    await page.setViewport(options.viewport);
    await page.bringToFront();
    const session = await page.createCDPSession();
    // The opener's side of a popup: announced before its target exists, so `ready()` waits.
    session.on('Page.windowOpen', () => {
      const announced = Symbol('window');
      opening.add(announced);
      void sleep(OPEN_TIMEOUT_MS).then(() => {
        opening.delete(announced);
        wake();
      });
    });
    await session.send('Page.enable');
    options.onPage?.(page, session);
    const inflight = new Set<HTTPRequest>();
    page.on('request', (request) => {
      if (isMainFrameNavigation(page, request)) inflight.add(request);
    });
    page.on('requestfinished', (request) => inflight.delete(request));
    page.on('requestfailed', (request) => inflight.delete(request));
    page.on('dialog', (dialog) => void answerDialog(dialog, logger));
    page.on('framenavigated', (frame) => record(frame.url()));
    const targetId = (page.target() as unknown as { _targetId: string })._targetId;
    const tab: Tab = {
      page,
      session,
      script: createPageScript(session),
      liveness: trackLiveness(page, logger),
      inflight,
      network: trackNetworkQuiet(page),
      targetId,
      opener,
    };
    page.once('close', () => closed(tab));
    return tab;
  };

  let current = await prepare(options.root, null);
  tabs.push(current);

  const activate = (tab: Tab) => {
    current = tab;
    void tab.page.bringToFront().catch(() => undefined);
    for (const listener of switchListeners) listener(tab);
  };

  function closed(tab: Tab) {
    const index = tabs.indexOf(tab);
    if (index < 0) return;
    tabs.splice(index, 1);
    for (const listener of closeListeners) listener(tab);
    if (current !== tab || tabs.length === 0) return;
    let next = tab.opener;
    while (next && !tabs.includes(next)) next = next.opener;
    activate(next ?? (tabs.at(-1) as Tab));
  }

  const adopt = async (target: Target) => {
    const opener = tabs.find((tab) => tab.page.target() === target.opener());
    if (target.type() !== 'page' || !opener) return;
    const [oldest] = opening;
    if (oldest) opening.delete(oldest);
    const page = await target.page();
    if (!page || page.isClosed()) return;
    const tab = await prepare(page, opener);
    if (page.isClosed()) return;
    tabs.push(tab);
    logger.info({ url: page.url(), tabs: tabs.length }, 'a popup became the active page');
    activate(tab);
    const extra = tabs.filter((candidate) => candidate !== tab && candidate !== tabs[0]);
    while (tabs.length > options.maxTabs && extra.length > 0) {
      const oldest = extra.shift() as Tab;
      closed(oldest);
      await bounded(oldest.page.close(), logger, 'close an extra tab');
    }
  };

  browser.on('targetcreated', (target: Target) => {
    const work = adopt(target).catch((error: unknown) =>
      logger.warn({ err: error }, 'could not adopt a popup'),
    );
    pending.add(work);
    void work.finally(() => {
      pending.delete(work);
      wake();
    });
  });

  /** Until no window is announced or being adopted (an announced one waits OPEN_TIMEOUT_MS at most). */
  const ready = async () => {
    while (pending.size > 0 || opening.size > 0) {
      const next = new Promise<void>((resolve) => waiters.push(resolve));
      if (pending.size > 0) await Promise.race([Promise.all(pending), next]);
      else await next;
    }
  };

  return {
    active: () => current,
    list: () => [...tabs],
    ready,
    async closing(tab) {
      const deadline = performance.now() + CLOSE_GRACE_MS;
      while (tabs.includes(tab) && !tab.page.isClosed() && performance.now() < deadline)
        await sleep(25);
      if (tabs.includes(tab) && tab.page.isClosed()) closed(tab);
      return !tabs.includes(tab);
    },
    onSwitch: (listener) => void switchListeners.push(listener),
    onClose: (listener) => void closeListeners.push(listener),
    visitedOrigins: () => origins,
    async closeExtra() {
      await ready();
      const root = tabs[0] as Tab;
      for (const tab of tabs.slice(1).reverse()) {
        closed(tab);
        await bounded(tab.page.close(), logger, 'close a tab');
      }
      if (current !== root) activate(root);
    },
  };
}

/** Accepts alerts and beforeunload (so navigation proceeds), dismisses confirm and prompt. */
async function answerDialog(dialog: Dialog, logger: Logger): Promise<void> {
  const type = dialog.type();
  const accept = type === 'alert' || type === 'beforeunload';
  logger.info({ type, message: dialog.message().slice(0, 200), accept }, 'page dialog');
  await (accept ? dialog.accept() : dialog.dismiss()).catch((error: unknown) =>
    logger.warn({ err: error }, 'could not answer a page dialog'),
  );
}

// Adapter: the PageDriver port over puppeteer-core: the active tab (page-tabs.ts) and its CDP session.

import { jpegSize, type MaskCodec } from '@clawdie/kit/images';
import type { ElementsResponse, PageState } from '@clawdie/kit/jail-api';
import type { Logger } from 'pino';
import type { Browser, CDPSession, Page } from 'puppeteer-core';
import { NavigationFailedError } from '../errors.js';
import type {
  BrowserStatus,
  InputOutcome,
  InputStep,
  PageDriver,
  Screenshot,
  ViewportInfo,
} from '../page-driver.js';
import { bounded } from './bounded.js';
import { unstalledCapture } from './capture-stall.js';
import { ELEMENTS_SCRIPT } from './elements-script.js';
import { createFieldMasks, type FieldMasks, paintMasks, unionBoxes } from './field-masks.js';
import { createFramePaint } from './frame-paint.js';
import { withoutCaret } from './hidden-caret.js';
import { performInput } from './input-runner.js';
import { documentId, landingOf } from './landing.js';
import { loadRetryingNetworkChange } from './load-retry.js';
import { createNetworkLog } from './network-log.js';
import { createPageTabs, type PageTabs, type Tab } from './page-tabs.js';
import { createSecretFields } from './secret-fields.js';
import { insertSecret } from './secret-input.js';

export interface PuppeteerPageDriverOptions {
  browser: Browser;
  page: Page;
  /** Stops the browser (launched) or disconnects (attached); see browser/launch.ts. */
  close(): Promise<void>;
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  /** True when this process launched the browser: a reset may clear all of its cookies. */
  launched: boolean;
  /** Paints masks over screenshots of fields holding a secret. */
  codec: MaskCodec;
  logger: Logger;
  /** Records each batch's requests (default: on); off only to measure what it costs. */
  evidence?: boolean | undefined;
  /** Also called once per tab before it is used (file choosers are answered there). */
  onTab?: ((page: Page, session: CDPSession) => void) | undefined;
}

/** Tabs kept open at most (the first tab and the newest popups). */
export const MAX_TABS = 4;

export interface PuppeteerPageDriver extends PageDriver {
  readonly tabs: PageTabs;
  readonly masks: FieldMasks;
}

/**
 * Prepares the page (viewport, dialogs, a dedicated CDP session created while the renderer is
 * idle — attaching later could block behind a busy renderer) and returns the driver. Everything
 * goes to the active tab (page-tabs.ts: a popup the page opens becomes active).
 */
export async function createPuppeteerPageDriver(
  options: PuppeteerPageDriverOptions,
): Promise<PuppeteerPageDriver> {
  const { browser } = options;
  const logger = options.logger.child({ module: 'page-driver' });
  const viewport: ViewportInfo = {
    ...options.viewport,
    deviceScaleFactor: options.deviceScaleFactor,
  };
  const network = options.evidence === false ? undefined : createNetworkLog();
  const tabs = await createPageTabs({
    browser,
    root: options.page,
    viewport,
    maxTabs: MAX_TABS,
    logger,
    onPage: (page, session) => {
      network?.watch(page);
      options.onTab?.(page, session);
    },
  });
  const masks = createFieldMasks();
  const paint = createFramePaint();
  const secrets = createSecretFields();
  tabs.onClose((tab) => {
    masks.clear(tab);
    secrets.clear(tab);
  });
  const version = await browser.version().catch(() => null);
  const active = async (): Promise<Tab> => {
    await tabs.ready();
    return tabs.active();
  };
  /**
   * Runs `work` on the active tab. A popup that closed itself (window.close) is gone before its
   * tab's close event arrives: when `work` fails because its tab's target went away, it runs
   * once more on the tab that is active once the close was seen.
   */
  const guarded = async <T>(work: (tab: Tab) => Promise<T>): Promise<T> => {
    const tab = await active();
    try {
      return await tab.liveness.guard(() => work(tab));
    } catch (error) {
      if (!(await tabs.closing(tab))) throw error;
      const next = await active();
      return next.liveness.guard(() => work(next));
    }
  };

  const navigate = async (url: string, timeoutMs: number): Promise<InputOutcome> => {
    const { page } = await active();
    try {
      await loadRetryingNetworkChange((timeout) => page.goto(url, { waitUntil: 'load', timeout }), {
        timeoutMs,
        onRetry: (error, attempt) =>
          logger.warn(
            { url, attempt, err: describe(error) },
            'load abandoned on a network change; loading again',
          ),
      });
    } catch (error) {
      throw new NavigationFailedError(`navigation to ${url} failed: ${describe(error)}`, error);
    }
    return { navigated: true };
  };

  let closed = false;
  return {
    tabs,
    masks,
    network,
    viewport: () => ({ ...viewport }),
    status: (): BrowserStatus => ({
      connected: browser.connected,
      version,
      pageAlive: tabs.active().liveness.alive(),
    }),
    currentUrl: () => tabs.active().page.url(),

    screenshot: (quality, shotOptions) =>
      guarded(async (tab): Promise<Screenshot> => {
        const take = () => capture(tab, quality, logger);
        const shoot = shotOptions?.hideCaret ? () => withoutCaret(tab.session, take) : take;
        if (!masks.has(tab)) return shoot();
        // Boxes before and after the capture: the field may move while it is taken.
        const before = await masks.boxes(tab);
        const shot = await shoot();
        const boxes = unionBoxes(before, await masks.boxes(tab));
        const scale = shot.meta.imageWidth / shot.meta.viewportWidth;
        return { ...shot, jpeg: await paintMasks(options.codec, shot.jpeg, boxes, scale, quality) };
      }),

    state: () =>
      guarded(async (tab): Promise<PageState> => {
        const [[url, title, readyState], id] = await Promise.all([
          tab.script.evaluate<[string, string, string]>(
            '[location.href, document.title, document.readyState]',
          ),
          documentId(tab),
        ]);
        const loading = readyState !== 'complete' || tab.inflight.size > 0;
        return { url, title, loading, document_id: id, network_idle_ms: tab.network.idleMs() };
      }),

    elements: () => guarded((tab) => tab.script.evaluate<ElementsResponse>(ELEMENTS_SCRIPT)),

    perform: async (steps, performOptions) => {
      let sentTo: Tab | null = null;
      const [outcome, tab] = await guarded(async (tab) => {
        // Input that went to a page that closed meanwhile is not sent again to the next tab.
        if (sentTo) return [{ navigated: false }, sentTo] as const;
        // Pointer input goes where the compositor's hit test says: frames must be drawn first.
        if (steps.some(isPointer)) await paint.ready(tab);
        // A secret outside a password field is not copied, cut or dragged (secret-fields.ts).
        await secrets.beforeInput(tab, steps);
        sentTo = tab;
        let sent = false;
        try {
          const outcome = await performInput(tab.page, tab.script, steps, performOptions);
          sent = true;
          return [outcome, tab] as const;
        } finally {
          secrets.afterInput(tab, steps, sent);
        }
      });
      // A popup that closed itself (window.close) goes a moment after the input returns: the
      // call returns once that is seen, so the next one goes to its opener. Outside the guard,
      // which would run the input again on the opener once the popup's page is gone.
      if (tab.opener && (await closedItself(tab))) await tabs.closing(tab);
      await tabs.ready();
      // The input ran: a history that cannot be dropped now refuses the next input or back.
      await secrets.settle().catch(() => undefined);
      return outcome;
    },

    landing: (action) => guarded((tab) => landingOf(tab, action)),

    typeSecret: (text, guard) => guarded((tab) => insertSecret(tab, masks, secrets, text, guard)),

    async reset(timeoutMs) {
      await tabs.closeExtra();
      masks.clear();
      secrets.clear();
      await clearBrowsingData(
        browser,
        tabs.active(),
        tabs.visitedOrigins(),
        options.launched,
        logger,
      );
      await navigate('about:blank', timeoutMs);
    },

    // Not guarded: navigating is how a crashed page gets a new renderer.
    navigate,

    goBack: (timeoutMs) =>
      guarded(async ({ page, session }): Promise<InputOutcome> => {
        // A document that held a secret outside a password field is not brought back.
        await secrets.settle();
        const history = await session.send('Page.getNavigationHistory');
        if (history.currentIndex <= 0) return { navigated: false };
        try {
          await page.goBack({ waitUntil: 'load', timeout: timeoutMs });
        } catch (error) {
          throw new NavigationFailedError(`navigating back failed: ${describe(error)}`, error);
        }
        return { navigated: true };
      }),

    async interrupt(): Promise<void> {
      const { liveness, session, page } = tabs.active();
      if (!liveness.alive()) return;
      // Runtime.terminateExecution is served even while the renderer spins in a script; the
      // mouse reset releases a button a timed-out click or drag left pressed.
      await bounded(session.send('Runtime.terminateExecution'), logger, 'terminate execution');
      await bounded(page.mouse.reset(), logger, 'reset mouse');
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await options.close();
    },
  };
}

async function capture(tab: Tab, quality: number, logger: Logger): Promise<Screenshot> {
  // Page.captureScreenshot on the page's own session: emulation (viewport, scale factor) is per
  // CDP session, and a second session would capture at scale 1. In puppeteer 24 page.screenshot
  // without a clip is exactly that one call (measured: same speed).
  // A tab the page opened (window.open, target=_blank) takes the foreground, and the sandboxed
  // browser then draws no frame of our hidden page: the capture hung 15 s.
  if (await tab.script.evaluate<boolean>('document.hidden')) await tab.page.bringToFront();
  const [geometry, jpeg] = await Promise.all([
    tab.script.evaluate<[number, number, number]>('[innerWidth, innerHeight, devicePixelRatio]'),
    unstalledCapture(
      tab.page,
      tab.page.screenshot({
        type: 'jpeg',
        quality,
        fromSurface: true,
        captureBeyondViewport: false,
        optimizeForSpeed: true,
      }),
      logger,
    ),
  ]);
  const [width, height, ratio] = geometry;
  const size = jpegSize(jpeg) ?? {
    width: Math.round(width * ratio),
    height: Math.round(height * ratio),
  };
  return {
    jpeg,
    meta: {
      viewportWidth: width,
      viewportHeight: height,
      devicePixelRatio: ratio,
      imageWidth: size.width,
      imageHeight: size.height,
    },
  };
}

/**
 * Every storage type (cookies, local storage, IndexedDB, caches, service workers) of each origin
 * seen, and — in a browser this process launched — every cookie; an attached browser's other
 * sites keep theirs.
 */
async function clearBrowsingData(
  browser: Browser,
  root: Tab,
  origins: ReadonlySet<string>,
  all: boolean,
  logger: Logger,
): Promise<void> {
  const cdp = await browser.target().createCDPSession();
  try {
    if (all) await cdp.send('Storage.clearCookies', {});
    // Per origin on a page's session: the browser target's session answers "Internal error".
    for (const origin of origins)
      await root.session.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
  } finally {
    await bounded(cdp.detach(), logger, 'detach the storage session');
  }
}

/** True when the tab's page called window.close() (or its target is gone already). */
function closedItself(tab: Tab): Promise<boolean> {
  if (tab.page.isClosed()) return Promise.resolve(true);
  return tab.script.evaluate<boolean>('window.closed').catch(() => true);
}

function isPointer(step: InputStep): boolean {
  return step.kind !== 'key-down' && step.kind !== 'key-up' && step.kind !== 'type-text';
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

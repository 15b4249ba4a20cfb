// Adapter: the PageDriver port over puppeteer-core and one CDP session of the page.
import type { Logger } from 'pino';
import type { Browser, CDPSession, Dialog, HTTPRequest, Page } from 'puppeteer-core';
import type { ElementsResponse, PageState } from '../api/index.js';
import { NavigationFailedError } from '../errors.js';
import type {
  BrowserStatus,
  InputOutcome,
  PageDriver,
  Screenshot,
  ViewportInfo,
} from '../page-driver.js';
import { bounded } from './bounded.js';
import { ELEMENTS_SCRIPT } from './elements-script.js';
import { performInput } from './input-runner.js';
import { jpegSize } from './jpeg-size.js';
import { isMainFrameNavigation } from './navigation-watch.js';
import { trackLiveness } from './page-liveness.js';
import { createPageScript } from './page-script.js';

export interface PuppeteerPageDriverOptions {
  browser: Browser;
  page: Page;
  /** Stops the browser (launched) or disconnects (attached); see browser/launch.ts. */
  close(): Promise<void>;
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  logger: Logger;
}

/**
 * Prepares the page (viewport, dialogs, a dedicated CDP session created while the renderer is
 * idle — attaching later could block behind a busy renderer) and returns the driver.
 */
export async function createPuppeteerPageDriver(
  options: PuppeteerPageDriverOptions,
): Promise<PageDriver> {
  const { browser, page } = options;
  const logger = options.logger.child({ module: 'page-driver' });
  const viewport: ViewportInfo = {
    ...options.viewport,
    deviceScaleFactor: options.deviceScaleFactor,
  };
  await page.setViewport({ ...options.viewport, deviceScaleFactor: options.deviceScaleFactor });
  await page.bringToFront();
  const session: CDPSession = await page.createCDPSession();
  const script = createPageScript(session);
  const version = await browser.version().catch(() => null);

  let closed = false;
  const inflight = new Set<HTTPRequest>();
  page.on('request', (request) => {
    if (isMainFrameNavigation(page, request)) inflight.add(request);
  });
  page.on('requestfinished', (request) => inflight.delete(request));
  page.on('requestfailed', (request) => inflight.delete(request));
  const liveness = trackLiveness(page, logger);
  page.on('dialog', (dialog) => void answerDialog(dialog, logger));

  return {
    viewport: () => ({ ...viewport }),
    status: (): BrowserStatus => ({
      connected: browser.connected,
      version,
      pageAlive: liveness.alive(),
    }),
    currentUrl: () => page.url(),

    screenshot: (quality) =>
      liveness.guard(async (): Promise<Screenshot> => {
        // Page.captureScreenshot on the page's own session: emulation (viewport, scale factor)
        // is per CDP session, and a second session would capture at scale 1. In puppeteer 24
        // page.screenshot without a clip is exactly that one call (measured: same speed).
        // A tab the page opened (window.open, target=_blank) takes the foreground, and the
        // sandboxed browser then draws no frame of our hidden page: the capture hung 15 s.
        if (await script.evaluate<boolean>('document.hidden')) await page.bringToFront();
        const [geometry, jpeg] = await Promise.all([
          script.evaluate<[number, number, number]>('[innerWidth, innerHeight, devicePixelRatio]'),
          page.screenshot({
            type: 'jpeg',
            quality,
            fromSurface: true,
            captureBeyondViewport: false,
            optimizeForSpeed: true,
          }),
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
      }),

    state: () =>
      liveness.guard(async (): Promise<PageState> => {
        const [url, title, readyState] = await script.evaluate<[string, string, string]>(
          '[location.href, document.title, document.readyState]',
        );
        return { url, title, loading: readyState !== 'complete' || inflight.size > 0 };
      }),

    elements: () => liveness.guard(() => script.evaluate<ElementsResponse>(ELEMENTS_SCRIPT)),

    perform: (steps, performOptions) =>
      liveness.guard(() => performInput(page, script, steps, performOptions)),

    // Not guarded: navigating is how a crashed page gets a new renderer.
    async navigate(url, timeoutMs): Promise<InputOutcome> {
      try {
        await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
      } catch (error) {
        throw new NavigationFailedError(`navigation to ${url} failed: ${describe(error)}`, error);
      }
      return { navigated: true };
    },

    goBack: (timeoutMs) =>
      liveness.guard(async (): Promise<InputOutcome> => {
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

/** Accepts alerts and beforeunload (so navigation proceeds), dismisses confirm and prompt. */
async function answerDialog(dialog: Dialog, logger: Logger): Promise<void> {
  const type = dialog.type();
  const accept = type === 'alert' || type === 'beforeunload';
  logger.info({ type, message: dialog.message().slice(0, 200), accept }, 'page dialog');
  await (accept ? dialog.accept() : dialog.dismiss()).catch((error: unknown) =>
    logger.warn({ err: error }, 'could not answer a page dialog'),
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

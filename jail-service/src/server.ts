// Public entry for embedding and tests: start a complete jail-service (browser + HTTP) in-process.
import type { AddressInfo } from 'node:net';
import type { SelectCodecOptions } from '@clawdie/kit/images';
import { createAdaptorServer } from '@hono/node-server';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import { createCdpDownloads } from './browser/cdp-downloads.js';
import { answerFileChoosers } from './browser/cdp-file-chooser.js';
import { createCdpScreencastSource } from './browser/cdp-screencast.js';
import { createCdpTakeover } from './browser/cdp-takeover.js';
import { idlePageFingerprint } from './browser/idle-page.js';
import { openBrowser } from './browser/launch.js';
import { createPuppeteerPageDriver, type PuppeteerPageDriver } from './browser/page-driver.js';
import { createCdpSessionState } from './browser/session-state-adapter.js';
import type { JailConfig } from './config.js';
import { createDesktopSurface } from './desktop/desktop-surface.js';
import { openDownloadStore } from './downloads/open-download-store.js';
import { openImageEncoder } from './image-encoder.js';
import type { PageDriver } from './page-driver.js';
import type { EarlyChromium } from './runner/early-chromium.js';
import { normalizeUrl } from './tools/action-steps.js';
import { createHeldFrame } from './tools/held-frame.js';
import { createToolRegistry } from './tools/registry.js';
import { openUploadStore } from './uploads/open-upload-store.js';

export type { Environment, JailConfig, LoadConfigOptions, LogLevel } from './config.js';
export { loadConfig } from './config.js';

export interface JailService {
  /** Base URL, e.g. `http://127.0.0.1:41234` (the real port when configured with 0). */
  url: string;
  /** Stops the HTTP server, then the browser it launched (or disconnects an attached one). */
  close(): Promise<void>;
}

/**
 * Launches (or attaches to) Chromium, opens the start URL, builds the app (with the desktop
 * surface under /desktop when `config.desktopDisplay` is set) and listens on
 * `config.host:config.port`. Rejects with BrowserUnavailableError when the browser cannot start,
 * or with the listen error; nothing is left running after a rejection.
 */
export async function startJailService(
  config: Readonly<JailConfig>,
  logger: Logger,
  options: SelectCodecOptions = {},
  /** Chromium main.ts started already (runner/early-chromium.ts): connect to it. */
  early: EarlyChromium | null = null,
): Promise<JailService> {
  const images = await openImageEncoder(config, logger, options);
  const protocolTimeoutMs =
    2 * Math.max(config.actionTimeoutMs, config.navigationTimeoutMs) + 10_000;
  const { chromiumPath, cdpUrl, cdpTarget, userDataDir, proxyUrl, headless } = config;
  const opened = await openBrowser(
    {
      chromiumPath,
      cdpUrl,
      cdpTarget,
      userDataDir,
      protocolTimeoutMs,
      proxyUrl,
      headless,
      sandbox: config.chromiumSandbox,
      env: config.chromiumEnv,
      early,
    },
    logger,
  );
  let driver: PuppeteerPageDriver | undefined;
  let downloads: Awaited<ReturnType<typeof openDownloadStore>> | undefined;
  let uploads: Awaited<ReturnType<typeof openUploadStore>> | undefined;
  try {
    uploads = await openUploadStore(config.uploadDir, logger);
    driver = await createPuppeteerPageDriver({
      ...opened,
      viewport: config.viewport,
      deviceScaleFactor: config.deviceScaleFactor,
      codec: images.masks,
      logger,
      evidence: config.evidence,
      onTab: answerFileChoosers(uploads.store, logger),
    });
    downloads = await openDownloadStore(
      await createCdpDownloads(opened.browser, logger),
      config.downloadDir,
      logger,
    );
    await openStartUrl(driver, config, logger);
    const tools = createToolRegistry({
      driver,
      logger,
      actionTimeoutMs: config.actionTimeoutMs,
      navigationTimeoutMs: config.navigationTimeoutMs,
      screenshotQuality: config.screenshotQuality,
      screencast: createCdpScreencastSource(
        { tabs: driver.tabs, masks: driver.masks, codec: images.masks },
        logger,
      ),
    });
    const desktop =
      config.desktopDisplay && images.desktop
        ? await createDesktopSurface({
            ...config,
            display: config.desktopDisplay,
            logger,
            codec: images.desktop,
            images: images.summary(),
          })
        : undefined;
    const session = createCdpSessionState({ ...opened, timeoutMs: config.navigationTimeoutMs });
    const tabs = driver.tabs;
    const takeover = createCdpTakeover(() => tabs.active().page, driver.viewport, logger);
    // A held first frame only where nothing outside this process can change the page: a
    // headless browser it launched itself.
    const heldFrame =
      opened.launched && headless !== false && !desktop
        ? createHeldFrame(idlePageFingerprint(opened.browser, tabs))
        : undefined;
    // The first frame (slow: compositor start, first raster) while the service begins to listen.
    heldFrame?.prime(() => tools.exclusive(() => tools.invoke(tools.data.screenshot, {})));
    const app = createApp({
      tools,
      ...(heldFrame ? { heldFrame } : {}),
      driver,
      config,
      logger,
      session,
      images: images.summary,
      takeover,
      downloads: downloads.store,
      uploads: uploads.store,
      ...(desktop ? { desktop } : {}),
    });
    const server = createAdaptorServer({ fetch: app.fetch });
    const address = await listen(server, config.host, config.port);
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const url = `http://${host}:${address.port}`;
    const ownDriver = driver;
    const ownDownloads = downloads;
    const ownUploads = uploads;
    let closing: Promise<void> | undefined;
    return {
      url,
      close() {
        closing ??= (async () => {
          await new Promise<void>((resolve) => {
            server.close(() => resolve());
            if ('closeAllConnections' in server) server.closeAllConnections();
          });
          await ownDownloads.close();
          await ownUploads.close();
          await ownDriver.close();
          logger.info({ url }, 'jail-service stopped');
        })();
        return closing;
      },
    };
  } catch (error) {
    await downloads?.close();
    await uploads?.close();
    await (driver ?? opened).close();
    throw error;
  }
}

async function openStartUrl(driver: PageDriver, config: JailConfig, logger: Logger): Promise<void> {
  if (config.startUrl === 'about:blank') return;
  const url = normalizeUrl(config.startUrl);
  try {
    await driver.navigate(url, config.navigationTimeoutMs);
  } catch (error) {
    // The service still starts: the page shows the failure and the agent can navigate away.
    logger.warn({ url, err: error }, 'start URL did not load');
  }
}

type ListeningServer = ReturnType<typeof createAdaptorServer>;

function listen(server: ListeningServer, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

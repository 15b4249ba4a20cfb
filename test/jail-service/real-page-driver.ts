// Test helper: the jail-service's real page driver on a real Chromium it launched, without HTTP.

import { selectImageCodec } from '@clawdie/kit/images';
import type { Browser } from 'puppeteer-core';
import { openBrowser } from '../../jail-service/src/browser/launch.js';
import {
  createPuppeteerPageDriver,
  type PuppeteerPageDriver,
} from '../../jail-service/src/browser/page-driver.js';
import { silentLogger } from '../support/silent-logger.js';

const CHROMIUM = process.env.CLAWDIE_CHROMIUM_PATH || '/usr/bin/chromium';

/** Launches Chromium and wraps its first page; `driver.close()` stops the browser. */
export async function openRealPageDriver(viewport: {
  width: number;
  height: number;
}): Promise<{ driver: PuppeteerPageDriver; browser: Browser }> {
  const opened = await openBrowser(
    { chromiumPath: CHROMIUM, cdpUrl: null, userDataDir: null, protocolTimeoutMs: 30_000 },
    silentLogger,
  );
  const { codec } = await selectImageCodec('auto');
  const driver = await createPuppeteerPageDriver({
    ...opened,
    viewport,
    deviceScaleFactor: 1,
    codec,
    logger: silentLogger,
  });
  return { driver, browser: opened.browser };
}

// The benchmark browser: Debian Chromium launched here (so raw CDP can drive the same page), the
// demo shop, and a jail-service attached to that Chromium, with an operator pointed at it.
import { existsSync } from 'node:fs';
import puppeteer, { type Browser } from 'puppeteer-core';
import type { BrowserOperator } from '../controlplane/src/browser/operator/browser-operator.js';
import { createClawdieBrowserOperator } from '../controlplane/src/browser/operator/clawdie-browser-operator.js';
import { startLocalJailService } from '../controlplane/src/browser/provider/local-jail-service.js';
import { startDemoSite } from '../controlplane/src/platform/demo/demo-site-server.js';
import { silentLogger } from '../test/support/silent-logger.js';
import { testLauncher } from '../test/support/test-launcher.js';

export interface BenchBrowser {
  browser: Browser;
  siteUrl: string;
  operator: BrowserOperator;
  close(): Promise<void>;
}

export async function startBenchBrowser(
  viewport = { width: 1280, height: 800 },
  /** Extra jail-service variables (CLAWDIE_JAIL_EVIDENCE=off for the evidence comparison). */
  jailEnv: Record<string, string> = {},
): Promise<BenchBrowser> {
  const chromiumPath = process.env.CLAWDIE_CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(chromiumPath)) throw new Error(`Chromium not found at ${chromiumPath}`);
  const browser = await puppeteer.launch({
    executablePath: chromiumPath,
    headless: true,
    defaultViewport: null,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--window-size=${viewport.width},${viewport.height}`,
    ],
  });
  const site = await startDemoSite();
  const jail = await startLocalJailService({
    egressProxyUrl: null,
    launcher: testLauncher,
    env: {
      ...process.env,
      CLAWDIE_JAIL_CDP_URL: browser.wsEndpoint(),
      CLAWDIE_JAIL_VIEWPORT: `${viewport.width}x${viewport.height}`,
      ...jailEnv,
    },
    logger: silentLogger,
  });
  return {
    browser,
    siteUrl: site.url,
    operator: createClawdieBrowserOperator({ url: jail.url, token: jail.token, quality: 80 }),
    async close() {
      await jail.stop();
      await site.close();
      await browser.close();
    },
  };
}

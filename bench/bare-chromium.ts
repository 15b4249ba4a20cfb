// The clone benches' same-run baseline: the same Debian Chromium with the jail-service's flags,
// launched bare by `puppeteer.launch` in this process (no clone, no sandbox, no jail-service),
// then its first screenshot — or a local page opened on it (the lifecycle bench's baseline).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_FLAGS } from '../jail-service/src/browser/chromium-args.js';

const CHROMIUM = process.env.CLAWDIE_CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * One bare launch; the milliseconds from launch to its first screenshot answered (`pageUrl`
 * null: the cold clone's baseline), or to `pageUrl` loaded and the browser closed (the lifecycle
 * bench's baseline).
 */
export async function bareChromium(pageUrl: string | null): Promise<number> {
  const profile = await mkdtemp(join(tmpdir(), 'clawdie-bench-bare-'));
  const started = performance.now();
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    env: { PATH: '/usr/bin:/bin' },
    ignoreDefaultArgs: true,
    args: [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, 'about:blank'],
    pipe: true,
    defaultViewport: { width: 1280, height: 800 },
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  try {
    const [page] = await browser.pages();
    if (!page) throw new Error('bare Chromium opened no page');
    if (!pageUrl) {
      await page.screenshot({ type: 'jpeg', quality: 80, optimizeForSpeed: true });
      return performance.now() - started;
    }
    await page.goto(pageUrl, { waitUntil: 'load' });
    await browser.close();
    return performance.now() - started;
  } finally {
    if (browser.connected) await browser.close();
    await rm(profile, { recursive: true, force: true });
  }
}

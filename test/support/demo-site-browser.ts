import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import puppeteer from 'puppeteer-core';

import { chromiumPath } from './capabilities.js';

export { chromiumPath };

/** The flags of house-style §3.8 (puppeteer adds `--headless=new` for `headless: true`). */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A headless Chromium with a fresh profile; `close()` also deletes the profile. */
export interface TestChromium {
  browser: Browser;
  close(): Promise<void>;
}

/** Launches headless Chromium with a fresh temporary `--user-data-dir`. */
export async function launchTestChromium(): Promise<TestChromium> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'clawdie-demo-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
    userDataDir,
  });
  return {
    browser,
    async close() {
      await browser.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import sharp from 'sharp';

const chromiumPath = process.env.CLAWDIE_CHROMIUM_PATH || '/usr/bin/chromium';

/** Headless Chromium with the brief's flags and a fresh profile; `close()` deletes the profile. */
export async function launchDashboardChromium(): Promise<{
  browser: Browser;
  close(): Promise<void>;
}> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'clawdie-dashboard-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: chromiumPath,
    headless: true,
    userDataDir,
    defaultViewport: { width: 1280, height: 900 },
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Serves a Hono app on 127.0.0.1:0 (a real socket: Chromium needs one). */
export async function serveApp(app: Hono): Promise<{ url: string; close(): Promise<void> }> {
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Logs in through the form. */
export async function logIn(page: Page, baseUrl: string, token: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard`, { waitUntil: 'load' });
  await page.type('#token', token);
  await Promise.all([
    page.waitForNavigation({ waitUntil: 'load' }),
    page.click('button[type=submit]'),
  ]);
}

/** The RGB of one pixel of a PNG. */
export async function pixelAt(
  png: Uint8Array,
  x: number,
  y: number,
): Promise<[number, number, number]> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const offset = (Math.round(y) * info.width + Math.round(x)) * 3;
  return [data[offset] ?? 0, data[offset + 1] ?? 0, data[offset + 2] ?? 0];
}

/**
 * Saves a full-page screenshot to `$CLAWDIE_SCREENSHOT_DIR` (for looking at) and, with
 * `CLAWDIE_DOCS_IMAGES=1`, a palette PNG under 200 KB into docs/images.
 */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.CLAWDIE_SCREENSHOT_DIR;
  const docs = process.env.CLAWDIE_DOCS_IMAGES === '1';
  if (!dir && !docs) return;
  const png = await page.screenshot({ fullPage: true, type: 'png' });
  if (dir) await sharp(png).toFile(join(dir, `${name}.png`));
  if (docs) {
    let width = 1280;
    for (;;) {
      const out = await sharp(png)
        .resize({ width, withoutEnlargement: true })
        .png({ palette: true, colours: 128, compressionLevel: 9 })
        .toBuffer();
      if (out.length < 200_000 || width <= 640) {
        await writeFile(join('docs', 'images', `dashboard-${name}.png`), out);
        return;
      }
      width -= 160;
    }
  }
}

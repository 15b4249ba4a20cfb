// Representative screens for the model-image benches, rendered by real Chromium: the demo shop's
// pages (login, search, results, an item) and a dense article page (small text, a table, a
// photo-like gradient), each with the golden magenta marker, at 1280×800 DPR 1 and 2. Each screen
// is captured twice: as the jail-service sends it (JPEG q80) and lossless (PNG, what the reference
// SDK captures), so a format's fidelity is measured against the pixels Chromium drew.
import { existsSync } from 'node:fs';
import puppeteer from 'puppeteer-core';
import {
  demoCredentials,
  demoProducts,
  startDemoSite,
} from '../controlplane/src/platform/demo/demo-site-server.js';

export interface BenchScreen {
  name: string;
  /** What the jail-service hands the controlplane: a JPEG q80 at device pixels. */
  jpeg: Buffer;
  /** The same frame, lossless. */
  png: Buffer;
  width: number;
  height: number;
  dpr: 1 | 2;
}

const MARKER = `<div id="golden-marker" style="position:fixed;left:63%;top:58%;width:24px;height:24px;background:#ff00ff;z-index:99"></div>`;

const ARTICLE = `<!doctype html><html><body style="margin:0;font:14px/1.45 sans-serif;color:#222">
<header style="background:#2b3a55;color:#fff;padding:10px 24px;font-size:18px">Encyclopedia · Search <input style="width:320px" value="screen capture"></header>
<nav style="position:absolute;left:0;top:46px;width:200px;padding:12px;background:#f3f4f7;height:760px">${Array.from(
  { length: 30 },
  (_, i) => `<div><a href="#">Section ${i + 1} of the index</a></div>`,
).join('')}</nav>
<main style="margin-left:230px;padding:12px 24px;max-width:980px"><h1 style="font-size:26px">Screen capture</h1>
<div style="float:right;width:300px;height:200px;margin:0 0 8px 16px;background:radial-gradient(circle at 30% 40%,#e8c07a,#7a4b2a 45%,#1d3b5a 80%)"></div>
${Array.from(
  { length: 6 },
  (_, i) =>
    `<p>Paragraph ${i + 1}. A screenshot is an image of what a display shows; operating systems, browsers and remote-desktop tools capture them as lossless bitmaps, and encoders then trade bytes for fidelity, most visibly around small text and sharp edges in user interfaces.</p>`,
).join('')}
<table style="border-collapse:collapse;font-size:13px">${Array.from(
  { length: 6 },
  (_, r) =>
    `<tr>${Array.from({ length: 6 }, (_, c) => `<td style="border:1px solid #bbb;padding:3px 8px">r${r}c${c} ${(r * 37 + c * 11) % 97}</td>`).join('')}</tr>`,
).join('')}</table></main>${MARKER}</body></html>`;

/** Renders the screens; null when there is no Chromium (CLAWDIE_CHROMIUM_PATH). */
export async function renderBenchScreens(): Promise<BenchScreen[] | null> {
  const executablePath = process.env.CLAWDIE_CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(executablePath)) return null;
  const site = await startDemoSite();
  const browser = await puppeteer.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  const screens: BenchScreen[] = [];
  try {
    for (const dpr of [1, 2] as const) {
      const context = await browser.createBrowserContext(); // a fresh login per ratio
      const page = await context.newPage();
      await page.setViewport({ width: 1280, height: 800, deviceScaleFactor: dpr });
      const shoot = async (name: string) => {
        await page.evaluate((marker) => {
          if (!document.getElementById('golden-marker'))
            document.body.insertAdjacentHTML('beforeend', marker);
        }, MARKER);
        const jpeg = Buffer.from(await page.screenshot({ type: 'jpeg', quality: 80 }));
        const png = Buffer.from(await page.screenshot({ type: 'png' }));
        screens.push({ name, jpeg, png, width: 1280 * dpr, height: 800 * dpr, dpr });
      };
      await page.goto(`${site.url}/`);
      await shoot('demo login');
      await page.type('input[name=username]', demoCredentials.username);
      await page.type('input[name=password]', demoCredentials.password);
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      await shoot('demo search');
      await page.goto(`${site.url}/results?q=`);
      await shoot('demo results');
      await page.goto(`${site.url}/item/${demoProducts[0]?.id}`);
      await shoot('demo item');
      await page.setContent(ARTICLE);
      await shoot('dense article');
      await context.close();
    }
  } finally {
    await browser.close();
    await site.close();
  }
  return screens;
}

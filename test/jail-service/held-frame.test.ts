// A held first frame (issue 24, 4; tools/held-frame.ts) is answered only while nothing changed:
// over HTTP, the idle page's screenshots are the one the service took at start (`clawdie-frame: held`, the same
// bytes), and after a navigation, an input or any other request it never is again (the next
// screenshot shows the new page, checked by pixel); behind the service's back (real Chromium,
// no HTTP), a viewport change, a DOM change or a new target is seen by the fingerprint and the
// next capture shows it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig, startJailService } from '@clawdie/jail-service/server';
import sharp from 'sharp';
import { idlePageFingerprint } from '../../jail-service/src/browser/idle-page.js';
import type { PuppeteerPageDriver } from '../../jail-service/src/browser/page-driver.js';
import { createHeldFrame, HELD_FRAME_HEADER } from '../../jail-service/src/tools/held-frame.js';
import { jailChromiumEnv, requires } from '../support/capabilities.js';
import { silentLogger } from '../support/silent-logger.js';
import { htmlPage, type StaticSite, startStaticSite } from '../support/static-site.js';
import { createJailClient, type JailClient, TOKEN } from './jail-harness.js';
import { openRealPageDriver } from './real-page-driver.js';

const VIEWPORT = { width: 400, height: 300 };
type Rgb = readonly [number, number, number];

async function pixel(jpeg: Uint8Array, x = 200, y = 150): Promise<Rgb> {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at], data[at + 1], data[at + 2]] as unknown as Rgb;
}
const isRed = ([r, g, b]: Rgb) => r > 200 && g < 60 && b < 60;
const isWhite = (rgb: Rgb) => rgb.every((value) => value > 240);

describe('held first frame over HTTP (real Chromium)', requires('chromium'), () => {
  let site: StaticSite;
  before(async () => {
    site = await startStaticSite({
      '/red': htmlPage('red', '<style>body{background:red}</style>'),
    });
  });
  after(() => site?.close());

  /** A fresh jail-service on about:blank per case: a held frame is one per process. */
  async function withJail(run: (client: JailClient) => Promise<void>): Promise<void> {
    const config = loadConfig({
      CLAWDIE_JAIL_TOKEN: TOKEN,
      ...jailChromiumEnv,
      CLAWDIE_JAIL_VIEWPORT: `${VIEWPORT.width}x${VIEWPORT.height}`,
    });
    const service = await startJailService(config, silentLogger);
    try {
      await run(createJailClient(service.url));
    } finally {
      await service.close();
    }
  }
  const shot = async (client: JailClient, query = '') => {
    const { response, jpeg } = await client.screenshot(query);
    assert.equal(response.status, 200);
    return { frame: response.headers.get(HELD_FRAME_HEADER), jpeg };
  };

  it('answers the idle page again with its first frame while nothing changed', () =>
    withJail(async (client) => {
      // The service took its first frame itself while it started.
      const first = await shot(client);
      assert.equal(first.frame, 'held');
      assert.ok(isWhite(await pixel(first.jpeg)));
      assert.equal((await client.fetch('/health')).status, 200);
      const again = await shot(client);
      assert.equal(again.frame, 'held');
      assert.deepEqual(again.jpeg, first.jpeg);
      // Another quality is a real capture; the held frame stays for the quality it was taken at.
      assert.equal((await shot(client, '?quality=30')).frame, 'captured');
      assert.equal((await shot(client)).frame, 'held');
    }));

  it('never answers it after a navigation, even back to the idle page', () =>
    withJail(async (client) => {
      assert.equal((await shot(client)).frame, 'held');
      await client.run([{ type: 'navigate', url: `${site.url}/red` }]);
      const red = await shot(client);
      assert.equal(red.frame, 'captured');
      assert.ok(isRed(await pixel(red.jpeg)), `after the navigation: ${await pixel(red.jpeg)}`);
      await client.run([{ type: 'navigate', url: 'about:blank' }]);
      assert.equal((await shot(client)).frame, 'captured');
      assert.equal((await shot(client)).frame, 'captured');
    }));

  it('never holds the start-up frame when a navigation came first', () =>
    withJail(async (client) => {
      await client.run([{ type: 'navigate', url: `${site.url}/red` }]);
      const red = await shot(client);
      assert.equal(red.frame, 'captured');
      assert.ok(isRed(await pixel(red.jpeg)), `after the navigation: ${await pixel(red.jpeg)}`);
    }));

  it('never answers it after an input or any other request', () =>
    withJail(async (client) => {
      assert.equal((await shot(client)).frame, 'held');
      await client.run([{ type: 'click', x: 100, y: 100 }]);
      assert.equal((await shot(client)).frame, 'captured');
      assert.equal((await shot(client)).frame, 'captured');
    }));

  it('drops it on a read that does not change the page too (conservative)', () =>
    withJail(async (client) => {
      assert.equal((await shot(client)).frame, 'held');
      await client.state();
      assert.equal((await shot(client)).frame, 'captured');
    }));
});

describe(
  'held first frame behind the service (real Chromium, no HTTP)',
  requires('chromium'),
  () => {
    let driver: PuppeteerPageDriver;
    const fresh = async () => {
      const opened = await openRealPageDriver(VIEWPORT);
      driver = opened.driver;
      const held = createHeldFrame(idlePageFingerprint(opened.browser, driver.tabs));
      await held.capture(null, () => driver.screenshot(80));
      assert.ok(await held.take(null), 'held while nothing changed');
      return { held, page: driver.tabs.active().page, browser: opened.browser };
    };
    after(() => driver?.close());

    it('sees a viewport change, and the next capture has the new size', async () => {
      const { held, page } = await fresh();
      await page.setViewport({ width: 300, height: 200 });
      assert.equal(await held.take(null), null);
      const next = await held.capture(null, () => driver.screenshot(80));
      assert.equal((await sharp(next.jpeg).metadata()).width, 300);
      await driver.close();
    });

    it('sees a DOM change made without navigating, and the next capture shows it', async () => {
      const { held, page } = await fresh();
      await page.evaluate(() => {
        document.body.style.background = 'red';
      });
      assert.equal(await held.take(null), null);
      const next = await held.capture(null, () => driver.screenshot(80));
      assert.ok(
        isRed(await pixel(next.jpeg, 50, 50)),
        `after the DOM change: ${await pixel(next.jpeg, 50, 50)}`,
      );
      await driver.close();
    });

    it('sees another target appear', async () => {
      const { held, browser } = await fresh();
      await browser.newPage();
      assert.equal(await held.take(null), null);
      await driver.close();
    });
  },
);

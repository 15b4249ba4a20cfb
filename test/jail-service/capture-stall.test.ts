// A capture the compositor leaves waiting is woken, not left to the tool's 15 s bound
// (jail-service/src/browser/capture-stall.ts). The stall is real: Chromium's compositor draws no
// frame of a page another tab hides, and after a few captures `Page.captureScreenshot` on that
// page waits for one indefinitely. The same stalled capture is first shown to stay stalled without
// the wake (so the check can fail), then answered with it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'puppeteer-core';
import sharp from 'sharp';
import { unstalled, wakeCompositor } from '../../jail-service/src/browser/capture-stall.js';
import { FULL_CHROMIUM } from '../../jail-service/src/browser/chromium-binary.js';
import { type OpenedBrowser, openBrowser } from '../../jail-service/src/browser/launch.js';
import { missingCapabilities, skipFile } from '../support/capabilities.js';
import { silentLogger } from '../support/silent-logger.js';

const missing = missingCapabilities('chromium');

/** Settles with 'pending' when `work` has not answered within `ms`. */
const within = <T>(work: Promise<T>, ms: number) =>
  Promise.race([work, new Promise<'pending'>((resolve) => setTimeout(resolve, ms, 'pending'))]);

const shot = (page: Page) =>
  page.screenshot({ type: 'jpeg', quality: 50, optimizeForSpeed: true, fromSurface: true });

describe('unstalled (no browser)', () => {
  it('returns a capture that answers in time without waking anything', async () => {
    let woken = 0;
    const wake = async () => {
      woken += 1;
    };
    assert.equal(await unstalled(Promise.resolve('frame'), { stallMs: 1000, wake }), 'frame');
    assert.equal(woken, 0);
  });

  it('passes on a capture that fails in time, without waking', async () => {
    let woken = 0;
    const wake = async () => {
      woken += 1;
    };
    const failing = unstalled(Promise.reject(new Error('target closed')), { stallMs: 1000, wake });
    await assert.rejects(failing, /target closed/);
    assert.equal(woken, 0);
  });

  it('wakes once after the stall time and returns what the waiting capture answers then', async () => {
    let answer: (value: string) => void = () => undefined;
    const capture = new Promise<string>((resolve) => {
      answer = resolve;
    });
    let woken = 0;
    const wake = async () => {
      woken += 1;
      answer('drawn');
    };
    const started = performance.now();
    assert.equal(await unstalled(capture, { stallMs: 50, wake }), 'drawn');
    assert.equal(woken, 1);
    assert.ok(performance.now() - started >= 45);
  });

  it('rejects with the capture’s own error when it fails after the wake', async () => {
    let fail: (error: Error) => void = () => undefined;
    const capture = new Promise<string>((_resolve, reject) => {
      fail = reject;
    });
    const wake = async () => fail(new Error('target closed while stalled'));
    await assert.rejects(unstalled(capture, { stallMs: 50, wake }), /closed while stalled/);
  });
});

if (!skipFile('a capture stalled on a real hidden page', missing)) {
  describe('a capture stalled on a real hidden page', () => {
    let opened: OpenedBrowser;
    let page: Page;
    before(async () => {
      opened = await openBrowser(
        { chromiumPath: FULL_CHROMIUM, cdpUrl: null, userDataDir: null, protocolTimeoutMs: 30_000 },
        silentLogger,
      );
      page = opened.page;
      await page.goto('data:text/html,<body style="background:%23c00"><h1>under</h1>');
      const front = await opened.browser.newPage();
      await front.goto('data:text/html,<h1>in front</h1>');
      await front.bringToFront();
      assert.equal(await page.evaluate('document.hidden'), true);
    });
    after(async () => {
      await opened?.close();
    });

    it('stays stalled without the wake, and answers a real JPEG of the page with it', async () => {
      // Captures of the hidden page answer a few times, then one waits: the stall (3 s unanswered,
      // well past a slow healthy capture on a loaded host).
      let stalled: Promise<Uint8Array> | undefined;
      for (let i = 0; i < 20 && !stalled; i += 1) {
        const capture = shot(page);
        if ((await within(capture, 3000)) === 'pending') stalled = capture;
      }
      assert.ok(stalled, 'a capture of the hidden page stalled within 20 tries');
      stalled.catch(() => undefined);

      // The control: the guard with a wake that does nothing leaves the capture waiting.
      const capture = stalled;
      const unwoken = unstalled(capture, { stallMs: 300, wake: async () => undefined });
      unwoken.catch(() => undefined);
      assert.equal(await within(unwoken, 3000), 'pending', 'nothing else unstalls it');

      const started = performance.now();
      const jpeg = await unstalled(capture, {
        stallMs: 300,
        wake: () => wakeCompositor(page, silentLogger),
      });
      const tookMs = performance.now() - started;
      assert.deepEqual([...jpeg.subarray(0, 2)], [0xff, 0xd8], 'a JPEG');
      assert.ok(tookMs < 300 + 3000, `answered ${tookMs.toFixed(0)} ms after the wake was allowed`);
      // The page draws again: the next capture answers without a wake.
      assert.notEqual(await within(shot(page), 2000), 'pending', 'a capture after the wake');
      // The page's own red, not the tab in front (white).
      const { data } = await sharp(jpeg).resize(1, 1).raw().toBuffer({ resolveWithObject: true });
      const [red = 0, green = 255] = data;
      assert.ok(red > 150 && green < 90, `the hidden page's red: ${[...data]}`);
    });
  });
}

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import sharp from 'sharp';
import type { VisionModel } from '../../controlplane/src/agent/model/chat-types.js';
import type { ScreencastFeed } from '../../controlplane/src/browser/operator/screencast-feed.js';
import {
  ADMIN_TOKEN,
  clickThenFinish,
  createDashboardFixture,
  type DashboardFixture,
} from '../controlplane/ingress/dashboard/dashboard-fixture.js';
import { requires } from '../support/capabilities.js';
import { submit } from '../support/submit-task.js';
import { keepScreenshot, launchDashboardChromium, logIn, serveApp } from './dashboard-support.js';

/** The script model, but each reply waits until the test lets it through. */
function createGatedModel(outputs: readonly string[]) {
  const waiting: (() => void)[] = [];
  let calls = 0;
  const model: VisionModel = {
    name: 'gated-script',
    isReplay: true,
    async complete(request, signal) {
      calls += 1;
      await new Promise<void>((resolve) => waiting.push(resolve));
      signal?.throwIfAborted();
      const turn = request.messages.filter((message) => message.role === 'assistant').length;
      const text = outputs[Math.min(turn, outputs.length - 1)] ?? 'Action: wait()';
      return { text, requestBytes: 1, usage: null };
    },
  };
  return {
    model,
    calls: () => calls,
    /** Lets the oldest waiting reply through (waits for the model to be asked first). */
    async release() {
      for (let i = 0; i < 200 && waiting.length === 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      waiting.shift()?.();
    },
    /** Lets every reply waiting now through, without waiting for more (the end of the suite). */
    releaseWaiting() {
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

/** A screencast that sends a green frame (twice: a part shows once the next begins), then stays open until the relay closes it. */
async function oneFrameFeed(): Promise<ScreencastFeed> {
  const frame = await sharp({
    create: { width: 640, height: 400, channels: 3, background: '#00aa00' },
  })
    .jpeg()
    .toBuffer();
  return {
    async open(signal) {
      const part = Buffer.concat([
        Buffer.from(
          `--frame\r\nContent-Type: image/jpeg\r\nContent-Length: ${frame.length}\r\n\r\n`,
        ),
        frame,
        Buffer.from('\r\n'),
      ]);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(Buffer.concat([part, part]));
          signal.addEventListener('abort', () => controller.close(), { once: true });
        },
      });
      return new Response(body, {
        headers: { 'content-type': 'multipart/x-mixed-replace; boundary=frame' },
      });
    },
  };
}

describe(
  'dashboard in real Chromium: the live view when the task ends',
  requires('chromium'),
  () => {
    const gated = createGatedModel(clickThenFinish);
    let fixture: DashboardFixture;
    let server: { url: string; close(): Promise<void> };
    let chromium: { browser: Browser; close(): Promise<void> };
    let page: Page;
    before(async () => {
      const feed = await oneFrameFeed();
      fixture = await createDashboardFixture({
        model: gated.model,
        screencast: () => feed,
      });
      server = await serveApp(fixture.app);
      chromium = await launchDashboardChromium();
      page = await chromium.browser.newPage();
      await logIn(page, server.url, ADMIN_TOKEN);
    });
    after(async () => {
      gated.releaseWaiting();
      await chromium?.close();
      await server?.close();
      await fixture?.close();
    });

    const badges = () =>
      page.$$eval('[data-live-steps] li', (items) =>
        items.map(
          (item) =>
            `${item.getAttribute('data-step')}:${item.querySelector('.badge')?.textContent}`,
        ),
      );

    it('rewrites a step shown pending, then shows the final frame and the result', async () => {
      const { taskId, done } = await submit(fixture.tasks, {
        instruction: 'Press the blue button',
      });
      // Step 1 is recorded (pending) while the model thinks: the page opens on it.
      for (let i = 0; i < 200 && (await fixture.repository.listSteps(taskId)).length === 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      await page.goto(`${server.url}/dashboard/tasks/${taskId}/live`, {
        waitUntil: 'domcontentloaded',
      });
      assert.deepEqual(await badges(), ['1:pending']);
      await page.waitForFunction(
        () =>
          (document.querySelector('[data-live-screen]') as HTMLImageElement | null)?.naturalWidth,
        { timeout: 10_000 },
      );

      await gated.release();
      await page.waitForFunction(
        () =>
          document.querySelector('[data-live-steps] [data-step="1"] .badge')?.textContent ===
          'acted',
        { timeout: 10_000 },
      );
      await gated.release();
      await gated.release();
      const result = await done;
      assert.equal(result.status, 'finished');
      await page.waitForFunction(
        () => document.querySelector('[data-live]')?.hasAttribute('data-live-ended'),
        {
          timeout: 10_000,
        },
      );
      assert.deepEqual(await badges(), ['1:acted', '2:acted', '3:finished']);

      // The feed ended with the task: its image is gone, the final screenshot stands in its place.
      assert.equal(await page.$('[data-live-screen]'), null);
      await page.waitForFunction(
        () =>
          (document.querySelector('img[data-live-final]') as HTMLImageElement | null)?.naturalWidth,
        { timeout: 10_000 },
      );
      const broken = await page.$$eval(
        'img',
        (imgs) =>
          (imgs as HTMLImageElement[]).filter((img) => !img.complete || img.naturalWidth === 0)
            .length,
      );
      assert.equal(broken, 0, 'no broken image');
      const resultText = await page.$eval('[data-live-result]', (node) => node.textContent ?? '');
      assert.match(resultText, /finished/);
      assert.match(resultText, /"answer": 42/);
      await keepScreenshot(page, 'live-ended');

      // Opened after the end: the same final frame and result, rendered by the server.
      await page.reload({ waitUntil: 'load' });
      assert.ok(
        await page.$eval(
          'img[data-live-final]',
          (img) => (img as HTMLImageElement).naturalWidth > 0,
        ),
      );
      assert.match(await page.$eval('[data-live-result]', (n) => n.textContent ?? ''), /answer/);
      assert.ok(!(await badges()).some((badge) => badge.endsWith(':pending')));
    });

    it('an ended task with a step left pending shows it unfinished (live view and task page)', async () => {
      const taskId =
        (await fixture.repository.listTasks({ limit: 1, offset: 0 })).tasks[0]?.id ?? '';
      // As an abort in the middle of a step leaves the row: recorded, never ended.
      await fixture.repository.insertStep(taskId, 4, Date.now());
      await page.goto(`${server.url}/dashboard/tasks/${taskId}/live`, { waitUntil: 'load' });
      await page.waitForFunction(() =>
        document.querySelector('[data-live]')?.hasAttribute('data-live-ended'),
      );
      assert.deepEqual(await badges(), ['1:acted', '2:acted', '3:finished', '4:unfinished']);
      await page.goto(`${server.url}/dashboard/tasks/${taskId}`, { waitUntil: 'load' });
      const titles = await page.$$eval('.step h3', (nodes) =>
        nodes.map((node) => node.textContent ?? ''),
      );
      assert.equal(titles.length, 4);
      assert.ok(!titles.some((title) => title.includes('pending')), titles.join(' | '));
      assert.match(titles[3] ?? '', /Step 4 unfinished/);
    });

    it('never shows a step pending once a later step exists or the task ended', async () => {
      const { shownOutcome } = await import(
        '../../controlplane/src/ingress/dashboard/live-page.js'
      );
      assert.equal(shownOutcome('pending', true, true), 'pending');
      assert.equal(shownOutcome('pending', false, true), 'unfinished');
      assert.equal(shownOutcome('pending', true, false), 'unfinished');
      assert.equal(shownOutcome('acted', false, true), 'acted');
    });
  },
);

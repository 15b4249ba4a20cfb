import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { createTestAuditTrail } from '../controlplane/ingress/dashboard/audit-fixture.js';
import {
  ADMIN_TOKEN,
  createDashboardPagesFixture,
  type DashboardPagesFixture,
} from '../controlplane/ingress/dashboard/dashboard-fixture.js';
import { requires } from '../support/capabilities.js';
import {
  keepScreenshot,
  launchDashboardChromium,
  logIn,
  pixelAt,
  serveApp,
} from './dashboard-support.js';

describe(
  'dashboard in real Chromium: finished task, markers, replay, export',
  requires('chromium'),
  () => {
    let fixture: DashboardPagesFixture;
    let server: { url: string; close(): Promise<void> };
    let chromium: { browser: Browser; close(): Promise<void> };
    let page: Page;
    let taskId = '';
    let trail: Awaited<ReturnType<typeof createTestAuditTrail>>;
    /** Every failed request of the session (a page asking for a missing favicon shows here). */
    const failures: string[] = [];
    before(async () => {
      trail = await createTestAuditTrail(12);
      fixture = createDashboardPagesFixture({ dashboard: { audit: trail.audit } });
      taskId = await fixture.runTask();
      await fixture.runTask('Find the cheapest red shirt and report its price');
      server = await serveApp(fixture.app);
      chromium = await launchDashboardChromium();
      page = await chromium.browser.newPage();
      page.on('response', (response) => {
        if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
      });
    });
    after(async () => {
      await chromium?.close();
      await server?.close();
      fixture?.close();
      trail?.close();
    });

    it('logs in with the admin token and lists the tasks, with no failed request (favicon included)', async () => {
      await logIn(page, server.url, ADMIN_TOKEN);
      const icon = await page.evaluate(async () => {
        const response = await fetch('/favicon.ico');
        return { status: response.status, type: response.headers.get('content-type') };
      });
      assert.deepEqual(icon, { status: 200, type: 'image/svg+xml' });
      assert.deepEqual(failures, []);
      assert.equal(new URL(page.url()).pathname, '/dashboard');
      const rows = await page.$$eval('tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
      assert.equal(rows.length, 2);
      assert.ok(rows.every((row) => row.includes('finished')));
      await keepScreenshot(page, 'task-list');
    });

    it('opens a finished task: step images load and the markers sit on the executed points', async () => {
      await Promise.all([
        page.waitForNavigation(),
        page.click(`a[href="/dashboard/tasks/${taskId}"]`),
      ]);
      const images = await page.$$eval('.step .shot img', (imgs) =>
        (imgs as HTMLImageElement[]).map((img) => ({ ok: img.complete, width: img.naturalWidth })),
      );
      assert.equal(images.length, 3);
      assert.ok(images.every((image) => image.ok && image.width === 1280));
      const markers = await page.$$eval('[data-marker]', (nodes) =>
        nodes.map((node) => node.getAttribute('data-marker')),
      );
      assert.deepEqual(markers, ['click', 'scroll']);

      // Pixels: the click marker's centre dot is magenta on the blue fake screen; a corner is blue.
      const shot = await page.$('.shot[data-step="1"] img');
      const box = await shot?.boundingBox();
      assert.ok(box);
      await page.evaluate((y) => window.scrollTo(0, y), box.y - 20);
      const inView = await (await page.$('.shot[data-step="1"] img'))?.boundingBox();
      assert.ok(inView);
      const png = await page.screenshot({ type: 'png' });
      const scale = inView.width / 1280;
      const centre = await pixelAt(png, inView.x + 640 * scale, inView.y + 400 * scale);
      assert.ok(centre[0] > 200 && centre[1] < 80 && centre[2] > 120, `marker pixel ${centre}`);
      const corner = await pixelAt(png, inView.x + 10, inView.y + 10);
      assert.ok(corner[2] > 130 && corner[0] < 90, `screenshot pixel ${corner}`);
      await page.evaluate(() => window.scrollTo(0, 0));
      await keepScreenshot(page, 'task-detail');
    });

    it('replays the frames step by step with the keyboard', async () => {
      await page.goto(`${server.url}/dashboard/tasks/${taskId}/replay`, { waitUntil: 'load' });
      const visible = () =>
        page.$$eval('[data-frame]', (frames) =>
          frames
            .filter((frame) => !(frame as HTMLElement).hidden)
            .map((f) => f.getAttribute('data-frame')),
        );
      assert.deepEqual(await visible(), ['1']);
      await page.keyboard.press('ArrowRight');
      assert.deepEqual(await visible(), ['2']);
      await page.focus('[data-replay-range]');
      await page.keyboard.press('ArrowRight');
      assert.deepEqual(await visible(), ['3']);
      assert.equal(
        await page.$eval('[data-replay-label]', (node) => node.textContent),
        'Step 3 of 3',
      );
      await page.click('[data-replay-prev]');
      assert.deepEqual(await visible(), ['2']);
      await keepScreenshot(page, 'replay');
    });

    it('exports an HTML report that opens from disk with its images and no network', async () => {
      const cookies = await page.cookies();
      const cookie = cookies.map((entry) => `${entry.name}=${entry.value}`).join('; ');
      const response = await fetch(`${server.url}/dashboard/tasks/${taskId}/export`, {
        headers: { cookie },
      });
      assert.equal(response.status, 200);
      const file = join(fixture.dataDir, 'report.html');
      await writeFile(file, await response.text());
      const offline = await chromium.browser.newPage();
      const requests: string[] = [];
      offline.on('request', (request) => requests.push(request.url()));
      await offline.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      const images = await offline.$$eval('.shot img', (imgs) =>
        (imgs as HTMLImageElement[]).map((img) => img.naturalWidth),
      );
      assert.deepEqual(images, [1280, 1280, 1280]);
      assert.ok(
        requests.every((url) => url.startsWith('file:') || url.startsWith('data:')),
        requests.join(),
      );
      await offline.keyboard.press('ArrowRight');
      const shown = await offline.$$eval(
        '[data-frame]',
        (frames) => frames.filter((frame) => !(frame as HTMLElement).hidden).length,
      );
      assert.equal(shown, 1);
      await offline.close();
    });

    it('shows the audit log and flags a tampered row', async () => {
      await page.goto(`${server.url}/dashboard/audit`, { waitUntil: 'load' });
      assert.equal(
        await page.$eval('[data-audit-chain]', (node) => node.getAttribute('data-audit-chain')),
        'ok',
      );
      trail.tamper(4);
      await page.reload({ waitUntil: 'load' });
      const flagged = await page.$eval('[data-audit-chain]', (node) => ({
        state: node.getAttribute('data-audit-chain'),
        firstBad: node.getAttribute('data-first-bad'),
        text: node.textContent ?? '',
      }));
      assert.equal(flagged.state, 'broken');
      assert.equal(flagged.firstBad, '4');
      assert.match(flagged.text, /First bad row: row 4 \(edited\)/);
      assert.equal(await page.$eval('tr.bad-row td', (node) => node.textContent), '4');
      await keepScreenshot(page, 'audit');
    });

    it('renders the settings and hosts pages', async () => {
      await page.goto(`${server.url}/dashboard/settings`, { waitUntil: 'load' });
      assert.equal(await page.$eval('h1', (node) => node.textContent), 'Settings');
      await page.goto(`${server.url}/dashboard/hosts`, { waitUntil: 'load' });
      assert.equal(await page.$eval('h1', (node) => node.textContent), 'Clones & hosts');
    });
  },
);

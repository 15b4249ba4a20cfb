import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'puppeteer-core';
import { demoTask } from '../../../../controlplane/src/platform/demo/demo-site-server.js';
import { requires } from '../../../support/capabilities.js';
import type { TestChromium } from '../../../support/demo-site-browser.js';
import { launchTestChromium } from '../../../support/demo-site-browser.js';
import type { DemoSiteFixture } from '../../../support/demo-site-fixture.js';
import { startDemoSiteFixture } from '../../../support/demo-site-fixture.js';

const viewports = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** Fails unless the page fits the viewport horizontally and every selector is visible in it. */
async function assertLayout(
  page: Page,
  label: string,
  selectors: readonly string[],
): Promise<void> {
  const report = await page.evaluate((wanted: readonly string[]) => {
    const root = document.documentElement;
    const boxes = wanted.map((selector) => {
      const element = document.querySelector(selector);
      if (!element) return { selector, found: false, visible: false, right: 0 };
      const rect = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      const visible =
        rect.width > 0 &&
        rect.height > 0 &&
        style.visibility !== 'hidden' &&
        style.display !== 'none';
      return { selector, found: true, visible, right: rect.right };
    });
    return {
      scrollWidth: root.scrollWidth,
      clientWidth: root.clientWidth,
      innerWidth: window.innerWidth,
      boxes,
    };
  }, selectors);
  assert.ok(
    report.scrollWidth <= report.clientWidth,
    `${label}: horizontal overflow ${report.scrollWidth} > ${report.clientWidth}`,
  );
  for (const box of report.boxes) {
    assert.ok(box.found && box.visible, `${label}: ${box.selector} is not visible`);
    assert.ok(
      box.right <= report.innerWidth,
      `${label}: ${box.selector} sticks out (${box.right}px)`,
    );
  }
}

async function capture(
  page: Page,
  name: string,
  viewport: { width: number; height: number },
): Promise<void> {
  // Kept for a person to look at; one folder per user, so runs by different users do not collide.
  const dir = join(tmpdir(), `clawdie-demo-shots-${process.getuid?.() ?? 'user'}`);
  mkdirSync(dir, { recursive: true });
  await page.screenshot({
    path: join(dir, `demo-${name}-${viewport.width}x${viewport.height}.png`),
  });
}

describe('demo site in real Chromium', requires('chromium'), () => {
  let chromium: TestChromium;
  let site: DemoSiteFixture;

  before(async () => {
    site = await startDemoSiteFixture();
    chromium = await launchTestChromium();
  });
  after(async () => {
    await chromium?.close();
    await site?.close();
  });

  for (const viewport of viewports) {
    it(`walks the flow cleanly at ${viewport.width}×${viewport.height}`, async () => {
      const context = await chromium.browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({ ...viewport, deviceScaleFactor: 1 });
      const label = (name: string): string => `${name} @${viewport.width}`;

      await page.goto(`${site.url}/`);
      assert.equal(await page.title(), 'Sign in · Clawdie Demo Shop');
      await assertLayout(page, label('login'), [
        '#username',
        '#password',
        'form.stack button',
        'h1',
      ]);
      await capture(page, 'login', viewport);

      await page.type('#username', 'demo');
      await page.type('#password', 'not-the-password');
      await Promise.all([page.waitForNavigation(), page.click('form.stack button')]);
      await assertLayout(page, label('login error'), ['.error', '#username', 'form.stack button']);
      assert.match(
        await page.$eval('.error', (element) => element.textContent ?? ''),
        /Wrong username or password/,
      );
      await capture(page, 'login-error', viewport);

      await page.type('#username', demoTask.username);
      await page.type('#password', demoTask.password);
      await Promise.all([page.waitForNavigation(), page.click('form.stack button')]);
      assert.equal(new URL(page.url()).pathname, '/search');
      await assertLayout(page, label('search'), [
        '#q',
        '.row button',
        'label[for="q"]',
        '.account button',
      ]);
      await capture(page, 'search', viewport);

      await page.type('#q', demoTask.searchTerm);
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      assert.equal(new URL(page.url()).search, `?q=${demoTask.searchTerm}`);
      const link = `a[href="/item/${demoTask.productId}"]`;
      await assertLayout(page, label('results'), ['#q', 'h1', link]);
      await capture(page, 'results', viewport);

      await Promise.all([page.waitForNavigation(), page.click(link)]);
      await assertLayout(page, label('item'), ['h1', '#order-reference', '.crumbs a']);
      const reference = await page.$eval('.reference', (element) => element.textContent ?? '');
      assert.equal(reference.trim(), `Order reference: ${demoTask.expectedValue}`);
      await capture(page, 'item', viewport);
      await context.close();
    });
  }
});

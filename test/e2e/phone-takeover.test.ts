// Issue 25 (1, 4): a supervisor on a phone. A task asks for help (call_user) and waits in
// needs_user; on a 390×844 touch phone the admin logs in to the dashboard (tasks, task, audit,
// settings, clones: no sideways scrolling, every nav entry in reach), taps Take over on the task
// page, reads the instruction, the question and the screen on the landing page, taps Take control,
// taps the remote page's button, and hands back: "Type into the page", note and Hand back in view
// without scrolling, the confirmation in view, the red frame gone. Then on a 1280×800 desktop the
// second question's takeover fits the window ("Type into the page" in view too), and the wheel
// over the screen goes to the remote page only while in control. Real controlplane, jail-service and Chromium; viewport screenshots are kept for review.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'puppeteer-core';
import { requires } from '../support/capabilities.js';
import { launchDashboardChromium, logIn } from './dashboard-support.js';
import {
  assertFitsWidth,
  assertInView,
  assertNavReachable,
  keepViewShot,
  lineBreaks,
  phone,
  tap,
} from './support/phone-layout.js';
import { startTakeoverHarness, startTaskNeedingUser } from './takeover-harness.js';
import { jailReader, tapInView, until } from './takeover-supervisor.js';

const ADMIN_TOKEN = 'phone-admin-token-0123456789abcdef';
const red = 'rgb(185, 28, 28)';
/** Waits until the image `selector` shows a picture. */
const loaded = (page: Page, selector: string) =>
  page.waitForFunction(
    (which) => ((document.querySelector(which) as HTMLImageElement | null)?.naturalWidth ?? 0) > 0,
    { timeout: 20_000 },
    selector,
  );
const screenLoaded = (page: Page) => loaded(page, '[data-takeover-screen]');
const screenBorder = (page: Page) =>
  page.$eval('[data-takeover-screen]', (el) => getComputedStyle(el).borderTopColor);

describe('e2e: takeover and dashboard on a phone (real Chromium)', requires('chromium'), () => {
  it('fits a 390×844 phone, taps through takeover and hand-back; fits 1280×800 with the wheel to the remote page', async (t) => {
    const harness = await startTakeoverHarness({
      on: ['call_user'],
      outputs: [
        "Action: call_user(content='Which shoe size should I pick: 42 or 43?')",
        "Action: call_user(content='Is the colour right?')",
        "Action: finished(content='picked 42')",
      ],
      env: { CLAWDIE_ADMIN_TOKEN: ADMIN_TOKEN },
    });
    t.after(harness.close);
    const { rest, taskId, status } = await startTaskNeedingUser(harness, {
      instruction: 'Buy the red running shoes from the shop and report the order number',
      startPath: '/login',
    });

    const chromium = await launchDashboardChromium();
    t.after(chromium.close);
    const page = await chromium.browser.newPage();
    await page.setViewport(phone);

    // The dashboard on the phone: every page fits, the nav is in reach.
    await logIn(page, harness.url, ADMIN_TOKEN);
    for (const [name, path] of [
      ['tasks', '/dashboard'],
      ['audit', '/dashboard/audit'],
      ['settings', '/dashboard/settings'],
      ['clones', '/dashboard/hosts'],
      ['task', `/dashboard/tasks/${taskId}`],
    ] as const) {
      await page.goto(`${harness.url}${path}`, { waitUntil: 'load' });
      await keepViewShot(page, `phone-dashboard-${name}`);
      await keepViewShot(page, `phone-dashboard-${name}-full`, true);
      await assertFitsWidth(page, name);
      await assertNavReachable(page, name);
      if (name === 'audit') {
        // The data column wraps between values (after ", " or ": ", or at a hyphen), never
        // between two letters or digits of a word.
        const breaks = await lineBreaks(page, '[data-audit-data]');
        assert.ok(breaks.length > 0, 'some audit data wraps on a phone');
        const inWord = breaks.filter((pair) => /^[\p{L}\p{N}]{2}$/u.test(pair));
        assert.deepEqual(inWord, [], `breaks inside a word (of ${breaks.join(' | ')})`);
      }
      if (name === 'settings')
        assert.match(
          await page.$eval('main', (el) => el.textContent ?? ''),
          /Takeover \(handoff\)/,
        );
    }

    // Take over from the task page: near the top, tapped without scrolling.
    await assertInView(page, '[data-live-takeover] button', 'Take over on the task page');
    await Promise.all([page.waitForNavigation(), tap(page, '[data-live-takeover] button')]);
    assert.match(new URL(page.url()).pathname, new RegExp(`^/takeover/${taskId}/open$`));
    await loaded(page, '[data-takeover-preview]');
    await keepViewShot(page, 'phone-takeover-landing');
    await assertFitsWidth(page, 'landing');
    const landing = await page.$eval('main', (el) => el.textContent ?? '');
    assert.match(landing, /Buy the red running shoes/);
    assert.match(landing, /Which shoe size should I pick: 42 or 43\?/);
    assert.match(landing, /expires in \d+ min \(/);
    await assertInView(page, '[data-takeover-preview]', 'the screen now');
    await assertInView(page, '[data-takeover-open] button', 'Take control');
    await Promise.all([page.waitForNavigation(), tap(page, '[data-takeover-open] button')]);

    // The live view on the phone: fits, note and Hand back in view; a tap clicks the remote page.
    await screenLoaded(page);
    await keepViewShot(page, 'phone-takeover-view');
    await assertFitsWidth(page, 'takeover view');
    await assertInView(page, '[data-takeover-screen]', 'the screen');
    await assertInView(page, '[data-takeover-type] [name="type_text"]', 'Type into the page');
    await assertInView(page, '[data-takeover-type] [data-takeover-key="Tab"]', 'its last key');
    await assertInView(page, '[name="note"]', 'the note');
    await assertInView(page, '[data-takeover-handback] button', 'Hand back');
    assert.match(
      await page.$eval('[data-takeover-deadline]', (el) => el.textContent ?? ''),
      /^expires in \d+ min \(\d/,
    );
    assert.equal(await screenBorder(page), red, 'the red frame while in control');
    const signIn = await jailReader(harness.jail).element((e) => e.text.trim() === 'Sign in');
    const posts = () => harness.site.requests.filter((r) => r.method === 'POST').length;
    const before = posts();
    await tapInView(page, signIn);
    await until('the tapped form is posted', async () => posts() > before);
    await page.type('[name="note"]', 'size 42');
    await tap(page, '[data-takeover-handback] button');
    await page.waitForSelector('[data-takeover-ended="handed-back"]');
    await keepViewShot(page, 'phone-takeover-handed-back');
    await assertInView(page, '[data-takeover-done]', 'the confirmation');
    assert.match(
      await page.$eval('[data-takeover-done]', (el) => el.textContent ?? ''),
      /Handed back/,
    );
    assert.notEqual(await screenBorder(page), red, 'no red frame after hand-back');
    assert.equal(await page.$('[data-takeover-deadline]:not([hidden] *)'), null, 'no deadline');

    // The second question, on a 1280×800 desktop: everything fits; the wheel follows control.
    await until('needs_user again', async () => (await status()) === 'needs_user');
    const issued = await rest(`/v1/tasks/${taskId}/takeover`, { method: 'POST' });
    assert.equal(issued.status, 200);
    const desk = await chromium.browser.newPage();
    await desk.setViewport({ width: 1280, height: 800 });
    await desk.goto(((await issued.json()) as { url: string }).url);
    await loaded(desk, '[data-takeover-preview]');
    await keepViewShot(desk, 'desktop-takeover-landing');
    await assertInView(desk, '[data-takeover-open] button', 'Take control on the desktop');
    await Promise.all([desk.waitForNavigation(), desk.click('[data-takeover-open] button')]);
    await screenLoaded(desk);
    await keepViewShot(desk, 'desktop-takeover-view');
    const fits = await desk.evaluate(
      () => document.documentElement.scrollHeight <= window.innerHeight,
    );
    assert.ok(fits, 'the desktop view needs no scrolling');
    await assertInView(desk, '[data-takeover-type] [name="type_text"]', 'Type on the desktop');
    await assertInView(desk, '[data-takeover-type] [data-takeover-key="Tab"]', 'its last key');
    await assertInView(desk, '[name="note"]', 'the note on the desktop');
    await assertInView(desk, '[data-takeover-handback] button', 'Hand back on the desktop');
    await desk.evaluate(() => {
      window.addEventListener('wheel', (e) => {
        document.body.dataset.wheel = e.defaultPrevented ? 'remote' : 'ours';
      });
    });
    const middle = await desk.$eval('[data-takeover-screen]', (el) => {
      const rect = el.getBoundingClientRect();
      return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
    });
    const wheel = async () => {
      await desk.mouse.move(middle.x, middle.y);
      await desk.mouse.wheel({ deltaY: 200 });
      await desk.waitForFunction(() => document.body.dataset.wheel);
      return desk.evaluate(() => {
        const went = document.body.dataset.wheel;
        delete document.body.dataset.wheel;
        return went;
      });
    };
    assert.equal(await wheel(), 'remote', 'in control: the wheel scrolls the remote page');
    await desk.click('[data-takeover-handback] button');
    await desk.waitForSelector('[data-takeover-ended="handed-back"]');
    await keepViewShot(desk, 'desktop-takeover-handed-back');
    await assertInView(desk, '[data-takeover-done]', 'the confirmation on the desktop');
    assert.notEqual(await screenBorder(desk), red);
    assert.equal(await wheel(), 'ours', 'handed back: the wheel is ours again');

    const ended = await until('the end', async () => {
      const now = await status();
      return now === 'finished' ? now : null;
    });
    assert.equal(ended, 'finished');
  });
});

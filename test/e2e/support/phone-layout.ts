// Phone-size checks for real Chromium pages: a 390×844 touch phone (device scale 3, mobile
// viewport rules: a page without a viewport meta lays out 980 px wide and is shrunk), whether the
// page scrolls sideways, whether an element is in view without scrolling, and taps by touch.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';

export const phone = {
  width: 390,
  height: 844,
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
} as const;

/** The page lays out at the phone's width, unzoomed, and nothing scrolls it sideways. */
export async function assertFitsWidth(page: Page, what: string) {
  const size = await page.evaluate(() => ({
    inner: window.innerWidth,
    scale: window.visualViewport?.scale ?? 1,
    scroll: document.documentElement.scrollWidth,
  }));
  const width = page.viewport()?.width ?? 0;
  assert.equal(
    size.inner,
    width,
    `${what}: laid out ${size.inner} px wide on a ${width} px screen`,
  );
  assert.equal(size.scale, 1, `${what}: shrunk to fit`);
  assert.ok(size.scroll <= size.inner, `${what}: ${size.scroll} px wide, scrolls sideways`);
}

/** The element's box, whether it lies in the viewport as it is now, and whether it is on top. */
export async function boxOf(page: Page, selector: string) {
  const box = await page.$eval(selector, (element) => {
    const rect = element.getBoundingClientRect();
    const x = rect.left + rect.width / 2;
    const y = rect.top + rect.height / 2;
    const hit = document.elementFromPoint(x, y);
    return {
      x,
      y,
      inView:
        rect.width > 0 &&
        rect.height > 0 &&
        rect.left >= 0 &&
        rect.top >= 0 &&
        rect.right <= window.innerWidth &&
        rect.bottom <= window.innerHeight,
      onTop: hit !== null && (hit === element || element.contains(hit)),
      scrollY: window.scrollY,
    };
  });
  return box;
}

/** The element is visible without scrolling (the page is at its top) and nothing covers it. */
export async function assertInView(page: Page, selector: string, what: string) {
  const box = await boxOf(page, selector);
  assert.equal(box.scrollY, 0, `${what}: the page was scrolled`);
  assert.ok(box.inView, `${what} (${selector}) is outside the viewport`);
  assert.ok(box.onTop, `${what} (${selector}) is covered`);
}

/** A finger tap on the element's centre (it must be in view). */
export async function tap(page: Page, selector: string) {
  const box = await boxOf(page, selector);
  assert.ok(box.inView && box.onTop, `${selector} can be tapped`);
  await page.touchscreen.tap(box.x, box.y);
}

/** Every entry of the dashboard's top bar (sections and Log out) is in view and tappable. */
export async function assertNavReachable(page: Page, what: string) {
  const items = await page.$$eval('header.top nav a, header.top form button', (elements) =>
    elements.map((element) => {
      const rect = element.getBoundingClientRect();
      const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
      return {
        label: element.textContent ?? '',
        ok:
          rect.width > 0 &&
          rect.left >= 0 &&
          rect.top >= 0 &&
          rect.right <= window.innerWidth &&
          rect.bottom <= window.innerHeight &&
          (hit === element || element.contains(hit)),
      };
    }),
  );
  assert.ok(items.length >= 4, `${what}: the nav has ${items.length} entries`);
  const hidden = items.filter((item) => !item.ok).map((item) => item.label);
  assert.deepEqual(hidden, [], `${what}: nav entries out of reach`);
}

/**
 * Where the text of each element matching `selector` wraps: the two characters either side of
 * every line break (a break after a space is between values, else it is inside a word).
 */
export async function lineBreaks(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(selector, (elements) =>
    elements.flatMap((element) => {
      const text = element.textContent ?? '';
      const node = element.firstChild;
      if (!node || node.nodeType !== Node.TEXT_NODE) return [];
      const range = document.createRange();
      const breaks: string[] = [];
      let lastTop: number | null = null;
      for (let i = 0; i < text.length; i += 1) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const top = range.getClientRects()[0]?.top;
        if (top === undefined) continue;
        if (lastTop !== null && top > lastTop + 2)
          breaks.push(text.slice(Math.max(0, i - 1), i + 1));
        lastTop = top;
      }
      return breaks;
    }),
  );
}

/**
 * Saves what the viewport shows (or the whole page) as `<name>.png` under `$CLAWDIE_SCREENSHOT_DIR` (for looking at),
 * else under the OS temp dir's `clawdie-phone-shots` (never in the repository).
 */
export async function keepViewShot(page: Page, name: string, fullPage = false) {
  const dir = process.env.CLAWDIE_SCREENSHOT_DIR || join(tmpdir(), 'clawdie-phone-shots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`) as `${string}.png`, fullPage });
}

// Issue 25 (1): a supervisor on a phone types into the remote page. A phone has no keyboard to
// press while the screen has focus, so the takeover view has "Type into the page": a field with
// Send, and Enter, Backspace and Tab buttons, relayed through the same input route as a desktop's
// keys. On a 390×844 touch phone the supervisor taps the remote page's first field, types
// "héllo 42x" in our field and sends it, taps Backspace and Tab, types "ok" and taps Enter: the
// page itself reports its fields "héllo 42" and "ok" and the keys it saw. The view fits the
// phone with the control and Hand back in view; the text is in no audit row, log line or model
// request. Real controlplane, jail-service and Chromium; viewport screenshots are kept for review.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HTTPRequest } from 'puppeteer-core';
import { requires } from '../support/capabilities.js';
import { launchDashboardChromium } from './dashboard-support.js';
import { everything, leaksOf } from './support/leak-search.js';
import { assertFitsWidth, assertInView, keepViewShot, phone, tap } from './support/phone-layout.js';
import { startTakeoverHarness, startTaskNeedingUser } from './takeover-harness.js';
import { jailReader, tapInView, until, untilTaken, watchViewInput } from './takeover-supervisor.js';

const field = '[data-takeover-type] [name="type_text"]';
const key = (name: string) => `[data-takeover-type] [data-takeover-key="${name}"]`;
const send = '[data-takeover-type] button[type="submit"]';

describe('e2e: typing into a takeover from a phone (real Chromium)', requires('chromium'), () => {
  it('types "héllo 42", Backspace, Tab and Enter through the takeover view at 390×844; logs only counts', async (t) => {
    const harness = await startTakeoverHarness({
      on: ['call_user'],
      outputs: [
        "Action: call_user(content='Please fill in the form')",
        "Action: finished(content='filled')",
      ],
    });
    t.after(harness.close);
    const { rest, taskId, status } = await startTaskNeedingUser(harness, {
      instruction: 'Fill in the form',
      startPath: '/typed',
    });
    const issued = await rest(`/v1/tasks/${taskId}/takeover`, { method: 'POST' });
    assert.equal(issued.status, 200);

    const chromium = await launchDashboardChromium();
    t.after(chromium.close);
    const page = await chromium.browser.newPage();
    await page.setViewport(phone);
    await page.goto(((await issued.json()) as { url: string }).url);
    await Promise.all([page.waitForNavigation(), tap(page, '[data-takeover-open] button')]);
    await page.waitForFunction(
      () =>
        ((document.querySelector('[data-takeover-screen]') as HTMLImageElement).naturalWidth ?? 0) >
        0,
      { timeout: 20_000 },
    );
    await keepViewShot(page, 'phone-takeover-typing-view');
    await assertFitsWidth(page, 'takeover view');
    for (const [selector, what] of [
      [field, 'the field to type into'],
      [send, 'Send'],
      [key('Enter'), 'Enter'],
      [key('Backspace'), 'Backspace'],
      [key('Tab'), 'Tab'],
      ['[data-takeover-handback] button', 'Hand back'],
    ] as const)
      await assertInView(page, selector, what);

    // Tap the remote page's first field on the screen, then type through our field.
    const first = await jailReader(harness.jail).element((e) => e.name === 'first');
    const inputs = watchViewInput(page);
    t.after(inputs.stop);
    let shot = false;
    await untilTaken(inputs, 'text', async () => {
      await tapInView(page, first);
      await tap(page, field);
      await page.keyboard.type('héllo 42x');
      if (!shot) await keepViewShot(page, 'phone-takeover-typing-field');
      shot = true;
      await tap(page, send);
    });
    assert.equal(await page.$eval(field, (el) => (el as HTMLInputElement).value), '', 'sent');
    await tap(page, key('Backspace'));
    await tap(page, key('Tab'));
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('name'));
    assert.equal(focused, 'type_text', 'the keys keep the focus (and the keyboard) in the field');
    await page.keyboard.type('ok');
    await tap(page, key('Enter'));
    await until('the form is posted', async () => harness.site.typed().length > 0);
    assert.deepEqual(harness.site.typed(), [
      { first: 'héllo 42', second: 'ok', keys: 'Backspace Tab Enter' },
    ]);
    await keepViewShot(page, 'phone-takeover-typing-sent');
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= 390),
      'no sideways scrolling after typing',
    );

    // A lost network answer neither ends the view nor loses input silently: two status polls get
    // no answer, then one input request a 503 and the next none; both are said under the screen.
    await page.setRequestInterception(true);
    const broken = { status: 2, input: 2 };
    const breaker = (request: HTTPRequest) => {
      const path = new URL(request.url()).pathname;
      if (path.endsWith('/status') && broken.status > 0) {
        broken.status -= 1;
        return void request.abort('connectionreset');
      }
      if (path.endsWith('/input') && broken.input > 0) {
        broken.input -= 1;
        if (broken.input === 1)
          return void request.respond({ status: 503, contentType: 'application/json', body: '{}' });
        return void request.abort('connectionreset');
      }
      return void request.continue();
    };
    page.on('request', breaker);
    await until('two polls without an answer', async () => broken.status === 0, 10_000);
    // Tab's key down goes alone, its key up in the next request.
    await tap(page, key('Tab'));
    await page.waitForSelector('[data-takeover-input-lost="2"]');
    assert.match(
      await page.$eval('[data-takeover-input-error]', (el) =>
        (el as HTMLElement).hidden ? 'hidden' : (el.textContent ?? ''),
      ),
      /did not reach the page \(no answer\)/,
    );
    assert.equal(
      await page.$eval('[data-takeover]', (el) => el.classList.contains('ended')),
      false,
      'still in control',
    );
    assert.equal(await page.$eval(field, (el) => (el as HTMLInputElement).disabled), false);
    page.off('request', breaker);
    await page.setRequestInterception(false);

    await tap(page, '[data-takeover-handback] button');
    await page.waitForSelector('[data-takeover-ended="handed-back"]');
    assert.equal(await page.$eval(field, (el) => (el as HTMLInputElement).disabled), true);
    await until('finished', async () => (await status()) === 'finished');

    // Counted, never kept: the audit has the input bursts (counts), nothing has the text.
    const bursts = (await harness.audit.list({ taskId, limit: 500 })).filter(
      (row) => row.type === 'takeover-input',
    );
    const counts = bursts.map(
      (row) => (row.data as { events: { text: number; key: number } }).events,
    );
    assert.equal(
      counts.reduce((sum, events) => sum + events.text, 0),
      2,
      `two texts sent: ${JSON.stringify(counts)}`,
    );
    assert.equal(
      counts.reduce((sum, events) => sum + events.key, 0),
      6,
      'three keys, down and up',
    );
    const haystack = everything({
      db: harness.database.db,
      dataDir: harness.dataDir,
      logLines: harness.logLines,
      modelRequests: harness.modelRequests,
    });
    assert.ok(harness.logLines.length > 0 && harness.modelRequests.length > 0, 'logs and requests');
    // "llo 42" also catches the text in a file read byte-wise (é is two bytes in UTF-8).
    assert.deepEqual(leaksOf(haystack, ['héllo', 'llo 42', 'h\\u00e9llo']), []);
  });
});

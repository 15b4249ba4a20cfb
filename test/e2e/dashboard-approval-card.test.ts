import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Action, LandingElement } from '@clawdie/kit/jail-api';
import type { Browser, Page } from 'puppeteer-core';
import type { BrowserOperator } from '../../controlplane/src/browser/operator/browser-operator.js';
import { systemClock } from '../../controlplane/src/clock.js';
import { createActionGate } from '../../controlplane/src/governance/policy/action-gate.js';
import { policySchema } from '../../controlplane/src/governance/policy/policy-schema.js';
import { escapeInvisible } from '../../controlplane/src/ingress/dashboard/approval-detail.js';
import { createApprovalsFixture } from '../controlplane/governance/approvals/approvals-fixture.js';
import {
  ADMIN_TOKEN,
  createDashboardPagesFixture,
  type DashboardPagesFixture,
} from '../controlplane/ingress/dashboard/dashboard-fixture.js';
import { requires } from '../support/capabilities.js';
import { silentLogger } from '../support/silent-logger.js';
import {
  keepScreenshot,
  launchDashboardChromium,
  logIn,
  pixelAt,
  serveApp,
} from './dashboard-support.js';

const PAGE_URL = 'https://bank.example/login?next=%2Faccounts';
/** A zero-width space, BEL, a right-to-left override, a placeholder and a forged escape. */
const TYPED = 'pay\u200bee {{secret:bank_password}}\u0007\u202e\\u{41}';

/** A login page rendered by Chromium at device pixel ratio 2; the Sign-in button's CSS centre. */
async function bankScreen(browser: Browser) {
  const tab = await browser.newPage();
  await tab.setViewport({ width: 640, height: 400, deviceScaleFactor: 2 });
  await tab.setContent(`<body style="margin:0;font:16px system-ui;background:#fff">
<button id="go" style="position:absolute;left:400px;top:250px;width:120px;height:40px;background:#fff;border:0">Sign in</button></body>`);
  const jpeg = Buffer.from(await tab.screenshot({ type: 'jpeg', quality: 90 }));
  await tab.close();
  return { jpeg, button: { x: 460, y: 270 } };
}

describe('dashboard in real Chromium: what an approval asks about', requires('chromium'), () => {
  const service = createApprovalsFixture(systemClock);
  let fixture: DashboardPagesFixture;
  let server: { url: string; close(): Promise<void> };
  let chromium: { browser: Browser; close(): Promise<void> };
  let page: Page;
  const verdicts: Promise<unknown>[] = [];
  let button = { x: 0, y: 0 };

  before(async () => {
    fixture = createDashboardPagesFixture({ dashboard: { approvals: service.approvals } });
    server = await serveApp(fixture.app);
    chromium = await launchDashboardChromium();
    const screen = await bankScreen(chromium.browser);
    button = screen.button;
    const operator: BrowserOperator = {
      screenshot: async () => ({
        jpeg: screen.jpeg,
        meta: {
          viewportWidth: 640,
          viewportHeight: 400,
          devicePixelRatio: 2,
          imageWidth: 1280,
          imageHeight: 800,
        },
      }),
      state: async () => ({ url: PAGE_URL, title: 'Sign in', loading: false }),
      landing: async () => {
        throw new Error('the loop takes the landing, not the gate');
      },
      execute: async () => {
        throw new Error('the gate never executes');
      },
    };
    const gate = createActionGate({
      taskId: 'task-approval-card',
      tenant: 'default',
      actor: 'tenant:default/alice',
      policy: policySchema.parse({
        tenant: 'default',
        domains: { allow: ['*'] },
        max_steps: 10,
        credentials: {
          modes: ['none', 'supervisor_approved'],
          secrets: [{ name: 'bank_password', domains: ['bank.example'] }],
        },
        approvals: {
          actions: [
            { action: 'click', decision: 'needs_approval', reason: 'clicks need a supervisor' },
            { action: 'type', decision: 'needs_approval', reason: 'typing needs a supervisor' },
          ],
        },
      }),
      taskDomains: undefined,
      credentialMode: 'supervisor_approved',
      operator,
      audit: service.audit,
      logger: silentLogger,
      approver: service.approvals,
    });
    const frames = [{ url: PAGE_URL, origin: 'https://bank.example' }];
    const ask = (action: Action, element: LandingElement) =>
      verdicts.push(
        gate({
          step: 1,
          action: {
            action,
            index: 0,
            count: 1,
            landing: {
              url: PAGE_URL,
              documentId: 'doc-1',
              target: { frames, element, destination: null },
            },
          },
        }),
      );
    ask(
      { type: 'click', x: button.x, y: button.y },
      { tag: 'button', input_type: null, autocomplete: null, field: 'other' },
    );
    ask(
      { type: 'type', text: TYPED },
      { tag: 'input', input_type: 'password', autocomplete: 'current-password', field: 'password' },
    );
    for (
      let i = 0;
      i < 100 && (await service.approvals.list({ status: 'pending', limit: 5 })).length < 2;
      i++
    )
      await new Promise((resolve) => setTimeout(resolve, 20));
    page = await chromium.browser.newPage();
    await logIn(page, server.url, ADMIN_TOKEN);
  });
  after(async () => {
    for (const record of await service.approvals.list({ status: 'pending', limit: 10 }))
      await service.approvals.answer(record.id, 'deny', 'test');
    await Promise.all(verdicts);
    await chromium?.close();
    await server?.close();
    fixture?.close();
    service.close();
  });

  it('shows the click, its coordinates, the URL and the target drawn on the screenshot', async () => {
    await page.goto(`${server.url}/dashboard/approvals`, { waitUntil: 'load' });
    const cards = await page.$$eval('[data-approval]', (items) =>
      items.map((item) => ({
        reason: item.querySelector('h2')?.textContent ?? '',
        action: item.querySelector('[data-approval-action]')?.textContent ?? null,
        url: item.querySelector('[data-approval-url]')?.textContent ?? null,
        text: item.querySelector('[data-approval-text]')?.textContent ?? null,
        frame: item.querySelector('[data-approval-frame]')?.textContent ?? null,
        field: item.querySelector('[data-approval-field]')?.textContent ?? null,
        marker: item.querySelector('[data-marker]')?.getAttribute('data-marker') ?? null,
      })),
    );
    const click = cards.find((entry) => entry.reason.includes('clicks need a supervisor'));
    assert.ok(click, JSON.stringify(cards));
    assert.equal(click.action, `click at (${button.x}, ${button.y})`);
    assert.equal(click.url, PAGE_URL);
    assert.equal(click.frame, 'https://bank.example');
    assert.equal(click.field, null);
    assert.equal(click.marker, 'click');
    // The marker is drawn in screenshot pixels (CSS × 2) and lands on the button as displayed;
    // measure once the screenshot has loaded (on a busy host it arrives after the card).
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll<HTMLImageElement>('[data-approval] img')].every(
          (img) => img.complete && img.naturalWidth > 0,
        ),
      { timeout: 10_000 },
    );
    const placed = await page.$eval('[data-approval] [data-marker="click"]', (group) => {
      const svg = group.closest('svg') as SVGSVGElement;
      const img = svg.parentElement?.querySelector('img') as HTMLImageElement;
      const circle = group.querySelector('circle') as SVGCircleElement;
      const box = circle.getBoundingClientRect();
      const shot = img.getBoundingClientRect();
      return {
        x: Number(group.getAttribute('data-x')),
        y: Number(group.getAttribute('data-y')),
        relX: (box.left + box.width / 2 - shot.left) / shot.width,
        relY: (box.top + box.height / 2 - shot.top) / shot.height,
        loaded: img.complete && img.naturalWidth,
      };
    });
    assert.equal(placed.x, button.x * 2);
    assert.equal(placed.y, button.y * 2);
    assert.equal(placed.loaded, 1280);
    assert.ok(Math.abs(placed.relX - button.x / 640) < 0.01, `x ${placed.relX}`);
    assert.ok(Math.abs(placed.relY - button.y / 400) < 0.01, `y ${placed.relY}`);
    // The ring is drawn over the image: the pixel under it is the marker's colour, not white.
    const shot = await page.screenshot({ type: 'png' });
    const ring = await page.$eval('[data-approval] [data-marker="click"] circle', (circle) => {
      const box = circle.getBoundingClientRect();
      return { x: box.left + 1, y: box.top + box.height / 2 };
    });
    const [r, g, b] = await pixelAt(shot, ring.x, ring.y);
    assert.ok(!(r > 240 && g > 240 && b > 240), `marker drawn: rgb(${r}, ${g}, ${b})`);
    await keepScreenshot(page, 'approval-card');
  });

  it('shows typed text with invisible characters escaped and placeholders, never a secret', async () => {
    const typed = await page.$$eval('[data-approval-text]', (nodes) =>
      nodes.map((node) => node.textContent),
    );
    assert.deepEqual(typed, ['pay\\u{200b}ee {{secret:bank_password}}\\u{7}\\u{202e}\\\\u{41}']);
    // Where the secret would go: the focused field's frame origin and its kind (issue 20).
    const fields = await page.$$eval('[data-approval-field]', (nodes) =>
      nodes.map((node) => node.textContent),
    );
    assert.deepEqual(fields, ['password (autocomplete current-password)']);
    const action = await page.$$eval('[data-approval-action]', (nodes) =>
      nodes.map((node) => node.textContent),
    );
    assert.ok(
      action.includes(`type ${TYPED.length} characters (secrets: bank_password)`),
      action.join(' | '),
    );
    assert.equal(escapeInvisible('a b\u00a0c\u2028\ud800'), 'a b\\u{a0}c\\u{2028}\\u{d800}');
  });
});

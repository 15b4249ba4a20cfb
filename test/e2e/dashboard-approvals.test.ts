import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { systemClock } from '../../controlplane/src/clock.js';
import type { ApprovalOutcome } from '../../controlplane/src/governance/approvals/approval-types.js';
import { createApprovalsFixture } from '../controlplane/governance/approvals/approvals-fixture.js';
import {
  ADMIN_TOKEN,
  createDashboardPagesFixture,
  type DashboardPagesFixture,
} from '../controlplane/ingress/dashboard/dashboard-fixture.js';
import { requires } from '../support/capabilities.js';
import { keepScreenshot, launchDashboardChromium, logIn, serveApp } from './dashboard-support.js';

/** A bank login page rendered by Chromium itself: the "current screen" sent with a request. */
async function bankScreen(browser: Browser): Promise<Buffer> {
  const tab = await browser.newPage();
  await tab.setViewport({ width: 1280, height: 800 });
  await tab.setContent(`<body style="margin:0;font:18px system-ui;background:#eef2f7">
<header style="background:#0b3d6e;color:#fff;padding:18px 32px;font-size:24px;font-weight:700">Example Bank</header>
<form style="width:420px;margin:90px auto;background:#fff;padding:32px;border-radius:12px;box-shadow:0 2px 12px #0002">
<h1 style="margin:0 0 20px;font-size:26px">Sign in</h1>
<label style="display:block;margin-bottom:6px">Customer number</label>
<input value="40417733" style="width:100%;font:inherit;padding:10px;margin-bottom:16px">
<label style="display:block;margin-bottom:6px">Password</label>
<input type="password" style="width:100%;font:inherit;padding:10px;margin-bottom:24px;outline:3px solid #ff00aa">
<button style="width:100%;font:inherit;padding:12px;background:#0b3d6e;color:#fff;border:0;border-radius:6px">Sign in</button>
</form></body>`);
  const jpeg = Buffer.from(await tab.screenshot({ type: 'jpeg', quality: 70 }));
  await tab.close();
  return jpeg;
}

describe('dashboard in real Chromium: approvals queue', requires('chromium'), () => {
  const service = createApprovalsFixture(systemClock);
  let fixture: DashboardPagesFixture;
  let server: { url: string; close(): Promise<void> };
  let chromium: { browser: Browser; close(): Promise<void> };
  let page: Page;
  let taskId = '';
  const outcomes = new Map<string, Promise<ApprovalOutcome>>();

  async function request(kind: 'credential' | 'navigation', reason: string, screenshot: Buffer) {
    const outcome = service.approvals.request({
      taskId,
      tenant: 'default',
      kind,
      reason,
      detail: {},
      screenshot,
      timeoutMs: 10 * 60_000,
    });
    await new Promise((resolve) => setImmediate(resolve));
    const record = (await service.approvals.list({ status: 'pending', limit: 10 })).find(
      (candidate) => candidate.reason === reason,
    );
    assert.ok(record);
    outcomes.set(record.id, outcome);
    return record.id;
  }

  before(async () => {
    fixture = createDashboardPagesFixture({ dashboard: { approvals: service.approvals } });
    taskId = await fixture.runTask('Log in to the bank and download the statement');
    server = await serveApp(fixture.app);
    chromium = await launchDashboardChromium();
    page = await chromium.browser.newPage();
  });
  after(async () => {
    for (const [id, outcome] of outcomes) {
      if ((await service.approvals.get(id))?.status === 'pending')
        await service.approvals.answer(id, 'deny', 'test');
      await outcome;
    }
    await chromium?.close();
    await server?.close();
    fixture?.close();
    service.close();
  });

  it('approves a pending approval from the page and sees it leave the queue', async () => {
    const screen = await bankScreen(chromium.browser);
    const earlier = await request('navigation', 'open https://mail.example/', screen);
    await service.approvals.answer(earlier, 'deny', 'telegram:alice');
    const first = await request('credential', 'type secret bank_password on bank.example', screen);
    const second = await request(
      'navigation',
      'open https://bank.example/transfer (not in the allow-list)',
      screen,
    );

    await logIn(page, server.url, ADMIN_TOKEN);
    assert.ok(await page.$('nav a[href="/dashboard/approvals"]'), 'nav entry');
    await Promise.all([page.waitForNavigation(), page.click('nav a[href="/dashboard/approvals"]')]);
    const queued = () =>
      page.$$eval('[data-approval]', (items) =>
        items.map((item) => item.getAttribute('data-approval')),
      );
    assert.deepEqual((await queued()).sort(), [first, second].sort());
    const images = await page.$$eval('.approval-shot img', (imgs) =>
      (imgs as HTMLImageElement[]).map((img) => img.complete && img.naturalWidth),
    );
    assert.deepEqual(images, [1280, 1280]);

    await Promise.all([
      page.waitForNavigation(),
      page.click(`[data-approval="${first}"] button[data-approve]`),
    ]);
    assert.equal(new URL(page.url()).pathname, '/dashboard/approvals');
    assert.deepEqual(await outcomes.get(first), {
      approved: true,
      approvalId: first,
      by: 'dashboard:admin',
    });
    assert.deepEqual(await queued(), [second]);
    const recent = await page.$$eval('[data-recent]', (rows) =>
      rows.map((row) => [row.getAttribute('data-recent'), row.textContent ?? '']),
    );
    assert.equal(recent[0]?.[0], first);
    assert.match(recent[0]?.[1] ?? '', /approved[\s\S]*dashboard:admin/);
    assert.match(recent[1]?.[1] ?? '', /denied[\s\S]*telegram:alice/);
    await keepScreenshot(page, 'approvals');
  });
});

import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { demoTask } from '../../controlplane/src/platform/demo/demo-site-server.js';
import type { TaskService } from '../../controlplane/src/tasks/task-service.js';
import { requires } from '../support/capabilities.js';
import { createTestControlplane, type TestControlplane } from '../support/controlplane.js';
import { submit } from '../support/submit-task.js';
import { keepScreenshot, launchDashboardChromium, logIn, serveApp } from './dashboard-support.js';
import { type E2eHarness, startE2eHarness } from './e2e-harness.js';

const ADMIN_TOKEN = 'live-dashboard-admin-token-0123';

describe(
  'dashboard live view on the real stack: screencast, steps, pause, abort',
  requires('chromium'),
  () => {
    let h: E2eHarness;
    let controlplane: TestControlplane;
    let tasks: TaskService;
    let server: { url: string; close(): Promise<void> };
    let chromium: { browser: Browser; close(): Promise<void> };
    let page: Page;
    before(async () => {
      h = await startE2eHarness({
        CLAWDIE_JAIL_VIEWPORT: '1280x800',
        CLAWDIE_JAIL_DEVICE_SCALE_FACTOR: '1',
      });
      // `npm start`'s composition root on the harness's jail-service (the live view relays the
      // screencast of the browser the task holds) and model, under a policy naming the shop.
      const policyDir = mkdtempSync(join(tmpdir(), 'clawdie-live-policy-'));
      writeFileSync(
        join(policyDir, 'default.yaml'),
        `tenant: default\ndomains: { allow: ["*", "${new URL(h.siteUrl).host}"] }\nmax_steps: 100\n`,
      );
      controlplane = await createTestControlplane({
        role: 'server',
        browsers: 'config',
        model: h.deps().model,
        env: {
          CLAWDIE_ADMIN_TOKEN: ADMIN_TOKEN,
          CLAWDIE_JAIL_URL: h.jail.url,
          CLAWDIE_JAIL_TOKEN: h.jail.token,
          CLAWDIE_POLICY_DIR: policyDir,
          CLAWDIE_MAX_STEPS: '15',
          CLAWDIE_WAIT_MS: '100',
        },
      });
      tasks = controlplane.tasks;
      server = await serveApp(controlplane.app);
      chromium = await launchDashboardChromium();
      page = await chromium.browser.newPage();
      await logIn(page, server.url, ADMIN_TOKEN);
    });
    after(async () => {
      await controlplane?.close();
      await chromium?.close();
      await server?.close();
      await h?.close();
    });

    it('shows the live browser, steps as they end, and aborts the task from the page', async () => {
      h.model.setMode('normal');
      h.model.setDelay(600);
      const { taskId, done } = await submit(tasks, {
        instruction: demoTask.instruction,
        start_url: `${h.siteUrl}/`,
        domains: [new URL(h.siteUrl).host],
      });
      await page.goto(`${server.url}/dashboard/tasks/${taskId}/live`, {
        waitUntil: 'domcontentloaded',
      });

      // Screencast frames arrive through the controlplane relay into the <img>.
      await page.waitForFunction(
        () =>
          (document.querySelector('[data-live-screen]') as HTMLImageElement | null)?.naturalWidth,
        { timeout: 15_000 },
      );
      const width = await page.$eval(
        '[data-live-screen]',
        (img) => (img as HTMLImageElement).naturalWidth,
      );
      assert.ok(width >= 640, `frame width ${width}`);

      // Steps appear as the loop ends them (SSE), without reloading. A failure says whether the
      // loop or the page fell behind: the steps stored, the task's status, the list shown.
      await page
        .waitForFunction(() => document.querySelectorAll('[data-live-steps] li').length >= 2, {
          timeout: 20_000,
        })
        .catch(async (error: unknown) => {
          const stored = await controlplane.repository.listSteps(taskId);
          const task = await controlplane.repository.getTask(taskId);
          const shown = await page
            .$$eval('[data-live-steps] li', (items) => items.map((item) => item.textContent))
            .catch((reason: unknown) => [`unreadable: ${String(reason)}`]);
          assert.fail(
            `${String(error)}; stored steps ${JSON.stringify(stored.map((step) => [step.index, step.outcome, step.outcomeMessage, step.captureMs, step.modelMs, step.executeMs]))}, task ${task?.status}, shown ${JSON.stringify(shown)}`,
          );
        });
      await keepScreenshot(page, 'live');

      // Pause: the page reloads showing the paused state; the loop holds before its next step.
      await Promise.all([page.waitForNavigation(), page.click('form[action$="/pause"] button')]);
      assert.equal(await page.$eval('[data-live-status]', (node) => node.textContent), 'paused');
      const stepsWhenPaused = (await controlplane.repository.listSteps(taskId)).length;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.ok((await controlplane.repository.listSteps(taskId)).length <= stepsWhenPaused + 1);

      // Abort: the status badge turns to aborted when the result event arrives.
      await Promise.all([page.waitForNavigation(), page.click('form[action$="/abort"] button')]);
      await page.waitForFunction(
        () =>
          document.querySelector('[data-live]')?.getAttribute('data-live-ended') === 'aborted' ||
          document.querySelector('[data-live-status]')?.textContent === 'aborted',
        { timeout: 15_000 },
      );
      const result = await done;
      assert.equal(result.status, 'aborted');
      assert.equal((await controlplane.repository.getTask(taskId))?.status, 'aborted');
      await page.goto(`${server.url}/dashboard/tasks/${taskId}`, { waitUntil: 'load' });
      const markers = await page.$$eval('[data-marker="click"]', (nodes) => nodes.length);
      assert.ok(markers >= 2, `click markers on the real screenshots: ${markers}`);
      await keepScreenshot(page, 'task-detail-real');
      await page.goto(`${server.url}/dashboard/tasks/${taskId}/replay`, { waitUntil: 'load' });
      await page.keyboard.press('ArrowRight');
      assert.match(
        (await page.$eval('[data-replay-label]', (node) => node.textContent)) ?? '',
        /^Step 2 of \d+$/,
      );
      await keepScreenshot(page, 'replay-real');
      h.model.setDelay(0);
    });
  },
);

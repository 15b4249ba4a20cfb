import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { loadConfig } from '../../controlplane/src/config.js';
import {
  type AuditTrail,
  createAuditLog,
} from '../../controlplane/src/governance/audit/audit-log.js';
import { loadPolicies } from '../../controlplane/src/governance/policy/load-policies.js';
import { settingsFromConfig } from '../../controlplane/src/ingress/dashboard/dashboard-wiring.js';
import { hostdHosts } from '../../controlplane/src/ingress/dashboard/hosts-views.js';
import { createAuditRepository } from '../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../controlplane/src/platform/store/database.js';
import {
  ADMIN_TOKEN,
  createDashboardPagesFixture,
  type DashboardPagesFixture,
} from '../controlplane/ingress/dashboard/dashboard-fixture.js';
import { requires } from '../support/capabilities.js';
import { keepScreenshot, launchDashboardChromium, logIn, serveApp } from './dashboard-support.js';

/** hostd's warm pool as its /health reports it; the test changes it between page loads. */
const pool = {
  target: 2,
  ready: 0,
  filling: 1,
  failures: 0,
  lastError: null as string | null,
  lastErrorAt: null as string | null,
  retryAt: null as string | null,
};
const fakeHostd = {
  health: async () => ({
    ok: true,
    driver: 'fake',
    isolation: { level: 'full' as const, reasons: [] },
    pool: { ...pool },
    clones: 0,
  }),
  listClones: async () => [],
};

describe('dashboard in real Chromium: settings and audit log', requires('chromium'), () => {
  let fixture: DashboardPagesFixture;
  let server: { url: string; close(): Promise<void> };
  let chromium: { browser: Browser; close(): Promise<void> };
  let page: Page;
  let policyDir = '';
  let audit: AuditTrail;
  let closeDb = () => {};
  const base = Date.UTC(2026, 0, 10, 12, 0);

  before(async () => {
    policyDir = await mkdtemp(join(tmpdir(), 'clawdie-policies-'));
    await copyFile('policies/default.yaml', join(policyDir, 'default.yaml'));
    await writeFile(
      join(policyDir, 'acme.yaml'),
      `tenant: acme
domains:
  allow: ["shop.example", "bank.example:8443"]
  outside: needs_approval
max_steps: 40
credentials:
  modes: [none, supervisor_approved]
  secrets: [{ name: bank_password, domains: ["bank.example:8443"] }]
approvals:
  call_user: needs_approval
  actions:
    - { action: "*", hosts: ["pay.shop.example"], decision: needs_approval, reason: payment pages }
`,
    );
    const config = loadConfig({ CLAWDIE_POLICY_DIR: policyDir });
    const policies = loadPolicies(policyDir);
    const database = openDatabase(':memory:');
    closeDb = database.close;
    let now = base;
    audit = createAuditLog(createAuditRepository(database.db), { now: () => now });
    for (let i = 1; i <= 120; i++) {
      now = base + i * 60_000;
      await audit.append({
        type: i % 2 ? 'action-executed' : 'policy-decided',
        actor: i % 4 === 0 ? 'tenant:acme/alice' : 'system',
        taskId: i % 5 === 0 ? 'task-five' : null,
        data: { i },
      });
    }
    fixture = createDashboardPagesFixture({
      dashboard: {
        audit,
        // The start-up description still carries the figure hostd reported then.
        settings: () =>
          settingsFromConfig(
            config,
            'hostd at http://127.0.0.1:7070 (fake driver, full isolation): a fresh clone per task, 2 at once, warm pool 2/2',
            policies,
          ),
        hosts: hostdHosts(fakeHostd, 'http://127.0.0.1:7070', 2),
      },
    });
    server = await serveApp(fixture.app);
    chromium = await launchDashboardChromium();
    page = await chromium.browser.newPage();
    await logIn(page, server.url, ADMIN_TOKEN);
  });
  after(async () => {
    await chromium?.close();
    await server?.close();
    fixture?.close();
    closeDb();
    await rm(policyDir, { recursive: true, force: true });
  });

  it('Settings lists the loaded policy files with their key rules', async () => {
    await page.goto(`${server.url}/dashboard/settings`, { waitUntil: 'load' });
    const text = await page.$eval('main', (main) => main.textContent ?? '');
    assert.ok(!text.includes('No policy files are loaded'), 'no false "no policies" statement');
    const policies = await page.$$eval('[data-policy]', (cards) =>
      cards.map((card) => card.getAttribute('data-policy')),
    );
    assert.deepEqual(policies, ['default', 'acme']);
    const rule = (tenant: string, label: string) =>
      page.$eval(
        `[data-policy="${tenant}"] [data-rule="${label}"]`,
        (node) => node.textContent ?? '',
      );
    assert.match(
      await page.$eval('[data-policy="acme"] h3', (node) => node.textContent ?? ''),
      /acme\.yaml$/,
    );
    assert.equal(
      await rule('acme', 'Allowed domains'),
      'shop.example (ports 80, 443), bank.example:8443',
    );
    assert.equal(await rule('acme', 'Credential modes'), 'none, supervisor_approved');
    assert.equal(await rule('acme', 'Max steps'), '40');
    assert.match(await rule('acme', 'Needs approval'), /typing a stored secret/);
    assert.match(await rule('acme', 'Needs approval'), /call_user/);
    assert.match(await rule('acme', 'Needs approval'), /outside the task's domains/);
    assert.match(await rule('acme', 'Needs approval'), /\* on pay\.shop\.example.*payment pages/);
    assert.equal(await rule('acme', 'Secrets (names only)'), 'bank_password on bank.example:8443');
    assert.equal(await rule('default', 'Max steps'), '100');
    await keepScreenshot(page, 'settings');
  });

  it('Settings shows the warm pool as hostd reports it now, not the start-up figure', async () => {
    await page.goto(`${server.url}/dashboard/settings`, { waitUntil: 'load' });
    assert.equal(
      await page.$eval('[data-warm-pool]', (n) => n.getAttribute('data-warm-pool')),
      '0/2',
    );
    const text = await page.$eval('main', (main) => main.textContent ?? '');
    assert.ok(!text.includes('warm pool 2/2'), 'the stale start-up figure is gone');
    pool.ready = 1;
    pool.failures = 2;
    pool.lastError = 'clone start timed out';
    pool.retryAt = '2026-01-10T12:00:08.000Z';
    await page.reload({ waitUntil: 'load' });
    assert.equal(
      await page.$eval('[data-warm-pool]', (n) => n.getAttribute('data-warm-pool')),
      '1/2',
    );
    assert.match(
      await page.$eval('[data-warm-pool-failures]', (n) => n.textContent ?? ''),
      /2 failed attempt\(s\), next at 2026-01-10T12:00:08\.000Z: clone start timed out/,
    );
  });

  const shownRows = () =>
    page.$$eval('[data-audit-rows] tbody tr[id^="audit-"]', (rows) =>
      rows.map((row) => Number(row.id.slice('audit-'.length))),
    );

  it('the audit log is newest first and pages to older rows, keeping the chain card', async () => {
    await page.goto(`${server.url}/dashboard/audit`, { waitUntil: 'load' });
    assert.equal(
      await page.$eval('[data-audit-chain]', (n) => n.getAttribute('data-audit-chain')),
      'ok',
    );
    const first = await shownRows();
    assert.equal(first.length, 50);
    assert.deepEqual(first.slice(0, 3), [120, 119, 118]);
    await Promise.all([page.waitForNavigation(), page.click('a[rel="next"]')]);
    const second = await shownRows();
    assert.equal(second[0], 70);
    await Promise.all([page.waitForNavigation(), page.click('a[rel="next"]')]);
    assert.deepEqual((await shownRows()).slice(-2), [2, 1]);
    assert.equal(await page.$('a[rel="next"]'), null);
  });

  it('filters the audit log by task, tenant, type and time range', async () => {
    await page.goto(`${server.url}/dashboard/audit`, { waitUntil: 'load' });
    await page.type('input[name="tenant"]', 'acme');
    await page.select('select[name="type"]', 'policy-decided');
    // 12:30 to 13:00 UTC: rows 30–60 (one a minute from 12:01).
    await page.$eval('input[name="from"]', (input) => {
      (input as HTMLInputElement).value = '2026-01-10T12:30';
    });
    await page.$eval('input[name="to"]', (input) => {
      (input as HTMLInputElement).value = '2026-01-10T13:00';
    });
    await Promise.all([page.waitForNavigation(), page.click('[data-audit-filters] button')]);
    assert.deepEqual(await shownRows(), [60, 56, 52, 48, 44, 40, 36, 32]);
    assert.equal(
      await page.$eval('[data-audit-chain]', (n) => n.getAttribute('data-audit-chain')),
      'ok',
    );
    await page.goto(`${server.url}/dashboard/audit?task=task-five&type=action-executed`, {
      waitUntil: 'load',
    });
    assert.deepEqual(await shownRows(), [115, 105, 95, 85, 75, 65, 55, 45, 35, 25, 15, 5]);
    await keepScreenshot(page, 'audit');
  });
});

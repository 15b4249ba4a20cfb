import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createArtifactFiles } from '../../../../controlplane/src/platform/store/artifact-files.js';
import { createFakeOperator } from '../../../support/fake-operator.js';
import { createDashboardFixture } from './dashboard-fixture.js';

const fixture = await createDashboardFixture();
after(() => fixture.close());
let cookie = '';
let taskId = '';
const get = (path: string) => fixture.app.request(path, { headers: { cookie } });

describe('dashboard task pages', () => {
  before(async () => {
    cookie = await fixture.login();
    taskId = await fixture.runTask();
  });

  it('lists the task with its status badge, steps and a link to it', async () => {
    const page = await (await get('/dashboard')).text();
    assert.match(page, /<span class="badge s-finished">finished<\/span>/);
    assert.match(page, new RegExp(`href="/dashboard/tasks/${taskId}"`));
    assert.match(page, /<td class="num" data-label="Steps">3\/6<\/td>/);
    assert.match(page, /1–1 of 1/);
  });

  it('shows each step with its screenshot, marker at the executed point, thought and timings', async () => {
    const response = await get(`/dashboard/tasks/${taskId}`);
    assert.equal(response.status, 200);
    const page = await response.text();
    assert.equal((page.match(/<article class="card step"/g) ?? []).length, 3);
    assert.match(
      page,
      new RegExp(
        `<img src="/dashboard/tasks/${taskId}/steps/1/screenshot.jpg" width="1280" height="800"`,
      ),
    );
    assert.match(page, /<svg class="overlay" viewBox="0 0 1280 800"/);
    assert.match(page, /data-marker="click" data-x="640" data-y="400"/);
    assert.match(page, /data-marker="scroll"/);
    assert.match(page, /Click the blue button\./);
    assert.match(page, /click\(start_box=/);
    assert.match(page, /capture \d/);
    assert.match(
      page,
      /<pre class="mono" id="result-data">\{\n {2}&quot;answer&quot;: 42\n\}<\/pre>/,
    );
    const image = await get(`/dashboard/tasks/${taskId}/steps/1/screenshot.jpg`);
    assert.equal(image.headers.get('content-type'), 'image/jpeg');
  });

  it('lists the files a task downloaded, each a download link', async () => {
    const files = createArtifactFiles(fixture.dataDir);
    const saved = await files.save(
      taskId,
      'orders <1>.csv',
      new Blob(['a,b\n1,2\n']).stream(),
      100,
    );
    const facts = { source_url: 'http://shop/export', step: 2, stored_at: 0, mime: 'text/csv' };
    await files.record(taskId, [{ name: 'orders <1>.csv', ...saved, ...facts }]);
    const page = await (await get(`/dashboard/tasks/${taskId}`)).text();
    assert.match(page, /<h2 id="downloads-title">Downloads<\/h2>/);
    const href = `/dashboard/tasks/${taskId}/artifacts/orders%20%3C1%3E.csv`;
    assert.ok(page.includes(`href="${href}" download>orders &lt;1&gt;.csv</a>`), 'escaped');
    assert.match(page, /<td>8 bytes<\/td><td class="mono">text\/csv<\/td>/);
    const file = await get(href);
    assert.equal(file.status, 200);
    assert.equal(await file.text(), 'a,b\n1,2\n');
    assert.equal((await get(`/dashboard/tasks/${taskId}/artifacts/other.csv`)).status, 404);
  });

  it('escapes instructions and model text', async () => {
    const id = await fixture.runTask('<script>alert(1)</script> & more');
    const page = await (await get(`/dashboard/tasks/${id}`)).text();
    assert.ok(!page.includes('<script>alert(1)'));
    assert.match(page, /&lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; more/);
  });

  it('renders a replay with one frame per step and a keyboard-accessible scrubber', async () => {
    const page = await (await get(`/dashboard/tasks/${taskId}/replay`)).text();
    assert.equal((page.match(/data-frame="/g) ?? []).length, 3);
    assert.match(page, /<input type="range" min="1" max="3"/);
    assert.match(page, /<script src="\/dashboard\/assets\/replay.js" defer><\/script>/);
  });

  it('exports a self-contained report: inline CSS and script, images as data URLs', async () => {
    const response = await get(`/dashboard/tasks/${taskId}/export`);
    assert.match(
      response.headers.get('content-disposition') ?? '',
      /attachment; filename="clawdie-task-/,
    );
    const report = await response.text();
    assert.equal((report.match(/src="data:image\/jpeg;base64,/g) ?? []).length, 3);
    assert.ok(!/(src|href)="\//.test(report), 'no links back to the server');
    assert.match(report, /<style>/);
    assert.match(report, /data-replay-range/);
  });

  it('answers unknown tasks with an HTML 404 page', async () => {
    const response = await get('/dashboard/tasks/nope');
    assert.equal(response.status, 404);
    assert.match(await response.text(), /No task has the trace id nope/);
  });

  it('shows read-only settings and hosts pages', async () => {
    assert.equal((await get('/dashboard/settings')).status, 200);
    assert.match(await (await get('/dashboard/hosts')).text(), /Clones &amp; hosts/);
  });
});

describe('dashboard wiring', () => {
  it('builds options only when an admin credential exists, and accepts either credential', async () => {
    const { createDashboardOptions } = await import(
      '../../../../controlplane/src/ingress/dashboard/dashboard-wiring.js'
    );
    const { loadConfig } = await import('../../../../controlplane/src/config.js');
    const config = loadConfig({ CLAWDIE_MODEL_URL: 'http://127.0.0.1:8000/v1' });
    const { singleJailHosts } = await import(
      '../../../../controlplane/src/ingress/dashboard/hosts-views.js'
    );
    const { trackLeases } = await import(
      '../../../../controlplane/src/browser/provider/task-browsers.js'
    );
    const { createSingleBrowserProvider } = await import(
      '../../../../controlplane/src/browser/provider/browser-provider.js'
    );
    const { browsers } = trackLeases(createSingleBrowserProvider(createFakeOperator().operator));
    const base = {
      config,
      browserSource: 'jail-service at http://127.0.0.1:9',
      browsers,
      hosts: singleJailHosts({ url: 'http://127.0.0.1:9', startedAt: 0 }, browsers),
    };
    assert.equal(createDashboardOptions(base), null);
    const jwt = {
      tokenHint: '<token>',
      verify: async (token: string) => {
        if (token !== 'good.jwt') throw new Error('bad');
        return { tenant: 't', subject: 's', scopes: ['admin'] as const, via: 'token' as const };
      },
    };
    const options = createDashboardOptions({
      ...base,
      adminToken: 'static-admin-token-0123456789',
      tokenVerifier: jwt,
    });
    assert.ok(options);
    assert.equal(await options.verifyAdmin('static-admin-token-0123456789'), true);
    assert.equal(await options.verifyAdmin('good.jwt'), true);
    assert.equal(await options.verifyAdmin('bad.jwt'), false);
    const settings = options.settings?.();
    assert.ok(
      settings?.groups[0]?.rows.some(([label, value]) => label === 'URL' && value.includes('8000')),
    );
    assert.equal((await options.hosts?.())?.clones.length, 1);
    assert.deepEqual(settings?.policies, [], 'no policy set given, none listed');
    assert.equal(
      options.loginFailures,
      undefined,
      'failed logins count against the app’s one limiter (http/mounted-apps.ts), not one of their own',
    );
  });

  it('lists the policies the server enforces (the shipped default.yaml) on the settings page', async () => {
    const { createDashboardOptions } = await import(
      '../../../../controlplane/src/ingress/dashboard/dashboard-wiring.js'
    );
    const { loadConfig } = await import('../../../../controlplane/src/config.js');
    const { loadPolicies } = await import(
      '../../../../controlplane/src/governance/policy/load-policies.js'
    );
    const { singleJailHosts } = await import(
      '../../../../controlplane/src/ingress/dashboard/hosts-views.js'
    );
    const { trackLeases } = await import(
      '../../../../controlplane/src/browser/provider/task-browsers.js'
    );
    const { createSingleBrowserProvider } = await import(
      '../../../../controlplane/src/browser/provider/browser-provider.js'
    );
    const config = loadConfig({});
    const { browsers } = trackLeases(createSingleBrowserProvider(createFakeOperator().operator));
    const options = createDashboardOptions({
      config,
      browserSource: 'jail-service at http://127.0.0.1:9',
      browsers,
      policies: loadPolicies(config.policyDir),
      hosts: singleJailHosts({ url: 'http://127.0.0.1:9', startedAt: 0 }, browsers),
      adminToken: 'static-admin-token-0123456789',
    });
    const policy = options?.settings?.().policies[0];
    assert.equal(policy?.tenant, 'default');
    assert.match(policy?.name ?? '', /policies\/default\.yaml$/);
    assert.ok(policy?.rules.some(([label, value]) => label === 'Max steps' && value === '100'));
  });
});

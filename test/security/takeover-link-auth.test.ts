// Issue 15 point 2 (authorization of takeover): only the task's tenant with `operate` (or an
// admin) gets a link; a link is bound to its task, tenant and expiry and works once; the cookie
// session it opens is bound to that task; cross-site writes are refused; refusals are audited.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { InputReport, SupervisorInput } from '@clawdie/kit/jail-api';
import { createReplayModel } from '../../controlplane/src/agent/model/replay-model.js';
import { createInputAudit } from '../../controlplane/src/browser/takeover/input-audit.js';
import type { HandBack } from '../../controlplane/src/browser/takeover/takeover-registry.js';
import { createAuditLog } from '../../controlplane/src/governance/audit/audit-log.js';
import { createApp } from '../../controlplane/src/ingress/http/app.js';
import { createAuditRepository } from '../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../controlplane/src/platform/store/database.js';
import { createTaskRepository } from '../../controlplane/src/platform/store/task-repository.js';
import { createTaskService } from '../../controlplane/src/tasks/task-service.js';
import { createAuthFixture } from '../controlplane/governance/auth/auth-fixture.js';
import { createManualClock } from '../support/manual-clock.js';
import { silentLogger } from '../support/silent-logger.js';
import { createTakeoverFixture } from '../support/takeover-fixture.js';
import { createTestTaskDeps } from '../support/test-task-deps.js';

const auth = await createAuthFixture();
const database = openDatabase(':memory:');
const repository = createTaskRepository(database.db);
const clock = createManualClock(Date.now());
const audit = createAuditLog(createAuditRepository(database.db), clock);
const takeover = createTakeoverFixture({ repository, audit, clock, publicUrl: 'http://cp.test' });
const test = createTestTaskDeps({ model: createReplayModel(["Action: finished(content='x')"]) });
const tasks = createTaskService({ ...test.deps, repository });
const app = createApp({
  tasks,
  repository,
  logger: silentLogger,
  defaultMaxSteps: 3,
  describe: () => ({ model: { name: 'replay', replay: true }, jail: { url: 'http://x' } }),
  auth: { verifier: auth.verifier },
  failures: { limit: 100_000, windowMs: 60_000 },
  audit,
  takeover: takeover.app,
});
after(async () => {
  await tasks.close();
  test.close();
  database.close();
});

const inputs: SupervisorInput[][] = [];
const handBacks: HandBack[] = [];
async function activeTask(id: string, tenant = 'acme') {
  await repository.createTask({
    id,
    tenant,
    actor: `tenant:${tenant}/runner`,
    instruction: 'log in',
    startUrl: null,
    maxSteps: 3,
    modelName: 'replay',
    coordinateMode: '1.5',
    createdAt: clock.now(),
  });
  takeover.app.registry.open({
    taskId: id,
    tenant,
    reason: 'login',
    startedAt: clock.now(),
    deadline: clock.now() + 600_000,
    endpoint: null,
    client: {
      signals: async () => {
        throw new Error('not used');
      },
      input: async (events): Promise<InputReport> => {
        inputs.push([...events]);
        return {
          dispatched: events.length,
          targets: { password: events.length, text: 0, other: 0 },
        };
      },
    },
    inputs: createInputAudit(
      (burst) =>
        void audit.append({
          type: 'takeover-input',
          actor: 'system',
          taskId: id,
          data: { ...burst },
        }),
    ),
    handBack: (handBack) => handBacks.push(handBack),
  });
}
await activeTask('task-a');
await activeTask('task-b');
await activeTask('task-beta', 'beta');

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
async function restLink(taskId: string, token: string) {
  const response = await app.request(`/v1/tasks/${taskId}/takeover`, {
    method: 'POST',
    headers: bearer(token),
  });
  return {
    status: response.status,
    url: response.status === 200 ? ((await response.json()) as { url: string }).url : '',
  };
}
const pathOf = (url: string) => url.replace('http://cp.test', '');
/** What the supervisor's browser does: GET the landing page, then POST its one button. */
async function open(url: string) {
  const path = pathOf(url);
  const landing = await app.request(path);
  if (landing.status !== 200)
    return { status: landing.status, cookie: '', text: await landing.text() };
  const [pathname = '', query = ''] = path.split('?');
  const response = await app.request(pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ t: new URLSearchParams(query).get('t') ?? '' }).toString(),
  });
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { status: response.status, cookie, text: await response.text() };
}
const refusals = async () =>
  (await audit.list({ limit: 1000 }))
    .filter((row) => row.type === 'takeover-refused')
    .map((row) => row.data.code);

describe('takeover authorization', () => {
  it('gives a link only to the task tenant’s supervisors and admins', async () => {
    assert.equal((await restLink('task-a', await auth.token(['operate'], 'beta'))).status, 404);
    assert.equal(
      (await restLink('task-a', await auth.token(['tasks:run', 'tasks:read'], 'acme'))).status,
      403,
    );
    assert.equal((await restLink('task-a', await auth.token(['operate'], 'acme'))).status, 200);
    assert.equal((await restLink('task-a', await auth.token(['admin'], 'other'))).status, 200);
    const handBack = await app.request('/v1/tasks/task-a/hand-back', {
      method: 'POST',
      headers: {
        ...bearer(await auth.token(['operate'], 'beta')),
        'content-type': 'application/json',
      },
      body: '{}',
    });
    assert.equal(handBack.status, 404, 'a tenant-B supervisor cannot hand back tenant A’s task');
    assert.equal(handBacks.length, 0);
  });

  it('opens a session once per link, and refuses reuse, tampering, another task and expiry', async () => {
    const supervisor = await auth.token(['operate'], 'acme');
    const { url } = await restLink('task-a', supervisor);
    const previewed = await app.request(pathOf(url));
    assert.equal(previewed.status, 200, 'a GET (link preview, scanner) shows the page');
    assert.equal((await app.request(pathOf(url))).status, 200, '… and does not spend the link');
    const first = await open(url);
    assert.equal(first.status, 303);
    assert.match(first.cookie, /^clawdie_takeover=/);
    const again = await open(url);
    assert.equal(again.status, 403);
    assert.match(again.text, /already used/);

    const fresh = (await restLink('task-a', supervisor)).url;
    const tampered = fresh.replace(
      /t=([^.]+)\.(.)/,
      (_, payload, c) => `t=${payload}.${c === 'A' ? 'B' : 'A'}`,
    );
    assert.equal((await open(tampered)).status, 403);
    assert.equal((await open(fresh.replace('/takeover/task-a/', '/takeover/task-b/'))).status, 403);

    const late = (await restLink('task-a', supervisor)).url;
    clock.advance(11 * 60_000);
    const expired = await open(late);
    clock.advance(-11 * 60_000);
    assert.equal(expired.status, 403);
    assert.match(expired.text, /expired/);
    const codes = await refusals();
    for (const code of ['TAKEOVER_LINK_USED', 'TAKEOVER_LINK_INVALID', 'TAKEOVER_LINK_EXPIRED'])
      assert.ok(codes.includes(code), `audited ${code}: ${codes.join(', ')}`);
  });

  it('refuses a link minted for another tenant than the task’s', async () => {
    const { token } = takeover.app.links.mint({
      task: 'task-a',
      tenant: 'beta',
      user: 'tenant:beta/x',
    });
    const refused = await open(`/takeover/task-a/open?t=${token}`);
    assert.equal(refused.status, 403);
  });

  it('binds the session to its task, refuses cross-site writes, and relays/audits input as counts', async () => {
    const { url } = await restLink('task-a', await auth.token(['operate'], 'acme'));
    const { cookie } = await open(url);
    const post = (path: string, body: unknown, extra: Record<string, string> = {}) =>
      app.request(path, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', ...extra },
        body: JSON.stringify(body),
      });
    const events = [{ type: 'text', text: 'hunter2-secret' }];
    assert.equal((await post('/takeover/task-b/input', { events })).status, 403, 'another task');
    assert.equal((await app.request('/takeover/task-b')).status, 403, 'no session, no page');
    const crossSite = await post(
      '/takeover/task-a/input',
      { events },
      { 'sec-fetch-site': 'cross-site' },
    );
    assert.equal(crossSite.status, 403);
    assert.equal(inputs.length, 0);
    assert.equal((await post('/takeover/task-a/input', { events })).status, 200);
    assert.deepEqual(inputs, [events]);

    const handed = await post('/takeover/task-a/hand-back', {
      note: 'logged in',
      save_session: { name: 'shop', origins: ['https://shop.test'] },
    });
    assert.equal(handed.status, 200);
    assert.deepEqual(handBacks.at(-1), {
      note: 'logged in',
      by: 'tenant:acme/tester',
      saveSession: { name: 'shop', origins: ['https://shop.test'] },
    });
    const [taskId, principal, save] = takeover.handBacks.at(-1) ?? [];
    assert.equal(taskId, 'task-a');
    assert.equal(principal?.tenant, 'acme');
    assert.deepEqual(save, { name: 'shop', origins: ['https://shop.test'] });
    takeover.app.registry.get('task-a')?.inputs.flush();
    const rows = (await audit.list({ limit: 1000 })).filter((row) => row.type === 'takeover-input');
    assert.deepEqual(rows.at(-1)?.data, {
      events: { mouse: 0, wheel: 0, key: 0, text: 1 },
      targets: { password: 1, text: 0, other: 0 },
    });
    assert.equal(
      JSON.stringify(await audit.list({ limit: 1000 })).includes('hunter2-secret'),
      false,
    );
  });
});

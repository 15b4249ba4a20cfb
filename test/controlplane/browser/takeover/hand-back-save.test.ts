// The takeover page's "Save this login as" (takeover-routes.ts, takeover-page.ts): the origins are
// prefilled with the origin the clone shows now (live, else the takeover's first one), escaped; a
// failed save is answered with its error and does NOT hand back; without a name nothing is saved.
// Redeeming the link audits `takeover-started` with the phase `supervisor_in_control`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PageSignals } from '@clawdie/kit/jail-api';
import { SessionProfileError } from '../../../../controlplane/src/browser/sessions/session-errors.js';
import { createInputAudit } from '../../../../controlplane/src/browser/takeover/input-audit.js';
import { takeoverPage } from '../../../../controlplane/src/browser/takeover/takeover-page.js';
import type { HandBack } from '../../../../controlplane/src/browser/takeover/takeover-registry.js';
import { createTakeoverRoutes } from '../../../../controlplane/src/browser/takeover/takeover-routes.js';
import { createAuditLog } from '../../../../controlplane/src/governance/audit/audit-log.js';
import { createAuditRepository } from '../../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { createTaskRepository } from '../../../../controlplane/src/platform/store/task-repository.js';
import { createManualClock } from '../../../support/manual-clock.js';
import { createTakeoverFixture } from '../../../support/takeover-fixture.js';

const database = openDatabase(':memory:');
const repository = createTaskRepository(database.db);
const clock = createManualClock(Date.now());
const audit = createAuditLog(createAuditRepository(database.db), clock);
const fixture = createTakeoverFixture({ repository, audit, clock });
const saves: unknown[] = [];
const app = createTakeoverRoutes({
  ...fixture.app,
  onHandBack: async (_taskId, _principal, save) => {
    if (save?.name === 'taken')
      throw new SessionProfileError('SESSION_INVALID', 'origins: <b>not an origin</b>', 400);
    if (save) saves.push(save);
  },
});

let liveOrigin: string | Error = 'https://shop.test';
const handBacks: HandBack[] = [];
async function activeTask(id: string) {
  await repository.createTask({
    id,
    tenant: 'acme',
    actor: 'tenant:acme/runner',
    instruction: 'log in',
    startUrl: null,
    maxSteps: 3,
    modelName: 'replay',
    coordinateMode: '1.5',
    createdAt: clock.now(),
  });
  fixture.app.registry.open({
    taskId: id,
    tenant: 'acme',
    reason: 'login',
    startedAt: clock.now(),
    deadline: clock.now() + 600_000,
    endpoint: null,
    origin: 'https://first.test',
    client: {
      signals: async () => {
        if (liveOrigin instanceof Error) throw liveOrigin;
        return { url_origin: liveOrigin } as PageSignals;
      },
      input: async () => assert.fail('no input'),
    },
    inputs: createInputAudit(() => undefined),
    handBack: (handBack) => handBacks.push(handBack),
  });
}

async function session(taskId: string) {
  const { token } = fixture.app.links.mint({ task: taskId, tenant: 'acme', user: 'op' });
  const opened = await app.request(`/${taskId}/open`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ t: token }).toString(),
  });
  assert.equal(opened.status, 303);
  const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return {
    get: (path: string) => app.request(`/${taskId}${path}`, { headers: { cookie } }),
    handBack: (body: unknown) =>
      app.request(`/${taskId}/hand-back`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
  };
}

describe('takeover page: save this login at hand-back', () => {
  it('prefills the origins with the clone’s current origin, else the takeover’s first one', async () => {
    await activeTask('t-prefill');
    const supervisor = await session('t-prefill');
    const page = await (await supervisor.get('')).text();
    assert.match(page, /name="session_name"/);
    assert.match(page, /name="session_origins"[^>]*value="https:\/\/shop\.test"/);
    liveOrigin = 'about:blank';
    assert.deepEqual(await (await supervisor.get('/origin')).json(), {
      origin: 'https://first.test',
    });
    liveOrigin = new Error('clone busy');
    assert.match(await (await supervisor.get('')).text(), /value="https:\/\/first\.test"/);
    liveOrigin = 'https://shop.test';
  });

  it('escapes what it renders', () => {
    const active = fixture.app.registry.get('t-prefill');
    assert.ok(active);
    const page = String(takeoverPage(active, '<script>alert(1)</script>', '"><script>x</script>'));
    assert.equal(page.includes('<script>alert'), false);
    assert.equal(page.includes('"><script>x'), false);
    assert.match(page, /&lt;script&gt;alert/);
  });

  it('answers a failed save with its error and does not hand back; then hands back without saving', async () => {
    await activeTask('t-save');
    const supervisor = await session('t-save');
    const before = handBacks.length;
    const failed = await supervisor.handBack({
      note: 'done',
      save_session: { name: 'taken', origins: ['nope'] },
    });
    assert.equal(failed.status, 400);
    assert.deepEqual(await failed.json(), {
      error: { code: 'SESSION_INVALID', message: 'origins: <b>not an origin</b>' },
    });
    assert.equal(handBacks.length, before, 'not handed back');
    assert.ok(fixture.app.registry.get('t-save'), 'the takeover goes on');

    const plain = await supervisor.handBack({ note: 'done' });
    assert.equal(plain.status, 200);
    assert.deepEqual(saves, [], 'nothing saved without a name');
    assert.deepEqual(handBacks.at(-1), { note: 'done', by: 'op', saveSession: undefined });
  });

  it('audits a redeemed link as supervisor_in_control (formerly operator_in_control)', async () => {
    await activeTask('t-audit');
    await session('t-audit');
    const started = (await audit.list({ taskId: 't-audit', limit: 10 })).filter(
      (row) => row.type === 'takeover-started',
    );
    assert.deepEqual(
      started.map((row) => [row.actor, row.data]),
      [['op', { phase: 'supervisor_in_control', reason: 'login' }]],
    );
  });

  it('saves before handing back when a name is given', async () => {
    await activeTask('t-ok');
    const supervisor = await session('t-ok');
    const save = { name: 'shop', origins: ['https://shop.test'] };
    assert.equal((await supervisor.handBack({ save_session: save })).status, 200);
    assert.deepEqual(saves, [save]);
    assert.deepEqual(handBacks.at(-1)?.saveSession, save);
  });
});

// One task's needs_user wait (takeover/task-handoff.ts) against a real store and audit, and its
// supervisor message through the Telegram notifier at the local Bot API server; plus how MCP
// progress and pi show the state.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { formatProgress } from '../../../../controlplane/pi-extension/format.js';
import { createTaskHandoff } from '../../../../controlplane/src/browser/takeover/task-handoff.js';
import { systemClock } from '../../../../controlplane/src/clock.js';
import { createNoticeSender } from '../../../../controlplane/src/governance/approvals/notice-sender.js';
import { createAuditLog } from '../../../../controlplane/src/governance/audit/audit-log.js';
import { createProgressTracker } from '../../../../controlplane/src/ingress/mcp/progress.js';
import { createTelegramNotifier } from '../../../../controlplane/src/ingress/telegram/telegram-notifier.js';
import { createAuditRepository } from '../../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { createTaskRepository } from '../../../../controlplane/src/platform/store/task-repository.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { createTakeoverFixture } from '../../../support/takeover-fixture.js';
import { startFakeBotApi } from '../../ingress/telegram/fake-bot-api.js';

const token = '555:handoff';
const database = openDatabase(':memory:');
const repository = createTaskRepository(database.db);
const audit = createAuditLog(createAuditRepository(database.db), systemClock);
const api = await startFakeBotApi(token);
const telegram = createTelegramNotifier({
  token,
  chatIds: [77],
  allowedUserIds: [1],
  apiRoot: api.apiRoot,
  approvals: { answer: () => assert.fail('no approval'), get: async () => null },
  audit,
  logger: silentLogger,
  pollTimeoutSeconds: 1,
});
telegram.start();
after(async () => {
  await telegram.stop();
  await api.close();
  database.close();
});
const fixture = createTakeoverFixture({
  repository,
  audit,
  notify: createNoticeSender({ notifiers: [telegram], audit, logger: silentLogger }),
});

async function runningTask(id: string) {
  await repository.createTask({
    id,
    tenant: 'acme',
    actor: 'tenant:acme/r',
    instruction: 'x',
    startUrl: null,
    maxSteps: 3,
    modelName: 'm',
    coordinateMode: '1.5',
    createdAt: Date.now(),
  });
  await repository.markStarted(id, Date.now());
}

/** The port of task `id`; what it reports to the run lands in `reports`. */
function handoffFor(id: string, timeoutS: number, reports: (string | null)[] = []) {
  return createTaskHandoff(fixture.tasks, {
    taskId: id,
    tenant: 'acme',
    policy: { on: ['login', 'call_user'], timeout_s: timeoutS, on_timeout: 'abort' },
    endpoint: null,
    onNeedsUser: (reason) => reports.push(reason),
    screenshot: async () => Buffer.alloc(2048, 7),
  });
}

describe('task handoff (needs_user)', () => {
  it('reports needs_user with its reason to the run, sends ONE Telegram message with the link, and reports its end on hand-back', async () => {
    await runningTask('t1');
    const reports: (string | null)[] = [];
    const waiting = handoffFor('t1', 60, reports).request({
      reason: 'login',
      step: 1,
      summary: 'wall',
    });
    assert.deepEqual(reports, ['login'], 'reported once the takeover is open');
    assert.ok(fixture.tasks.registry.get('t1'));
    const photo = await api.waitForCall('sendPhoto');
    assert.match(
      String(photo.params.caption),
      /Task needs a person: login\nTask: t1 \(tenant acme\)/,
    );
    assert.match(
      String(photo.params.caption),
      /http:\/\/127\.0\.0\.1:7070\/takeover\/t1\/open\?t=\S+/,
    );
    fixture.tasks.registry.get('t1')?.handBack({ note: 'done', by: 'tenant:acme/op' });
    assert.deepEqual(await waiting, { kind: 'handed_back', note: 'done' });
    assert.deepEqual(reports, ['login', null]);
    assert.equal(fixture.tasks.registry.get('t1'), undefined);
    assert.equal(api.calls.filter((call) => call.method.startsWith('send')).length, 1);
    const ended = (await audit.list({ taskId: 't1', limit: 50 })).find(
      (row) => row.type === 'takeover-ended',
    );
    assert.equal(ended?.data.outcome, 'handed_back');
    assert.equal(ended?.data.by, 'tenant:acme/op');
  });

  it('times out into the policy’s choice, audited', async () => {
    await runningTask('t2');
    const outcome = await handoffFor('t2', 0.05).request({
      reason: 'call_user',
      step: 2,
      summary: null,
    });
    assert.deepEqual(outcome, { kind: 'timed_out', onTimeout: 'abort' });
    const ended = (await audit.list({ taskId: 't2', limit: 50 })).find(
      (row) => row.type === 'takeover-ended',
    );
    assert.deepEqual([ended?.data.outcome, ended?.data.on_timeout], ['timed_out', 'abort']);
  });

  it('is shown on MCP progress and in pi', () => {
    const track = createProgressTracker(10);
    track({ type: 'step-started', step: 3, at: 0 });
    const update = track({ type: 'status-changed', status: 'needs_user', reason: 'otp' });
    assert.deepEqual(update, {
      progress: 3.25,
      total: 10,
      message: 'needs_user: a person is asked to take over the browser (otp)',
    });
    const line = formatProgress({
      trace_id: 't',
      status: 'needs_user',
      reason: 'captcha',
      step: null,
    });
    assert.match(line, /needs a person \(captcha\)/);
  });
});

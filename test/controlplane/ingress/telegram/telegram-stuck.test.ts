import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { Notifier } from '../../../../controlplane/src/governance/approvals/notifier.js';
import {
  createTelegramNotifier,
  describeNotice,
} from '../../../../controlplane/src/ingress/telegram/telegram-notifier.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { submit } from '../../../support/submit-task.js';
import { createStuckFixture, eventually } from '../../governance/policy/stuck-fixture.js';
import { startFakeBotApi } from './fake-bot-api.js';

const token = '123456:STUCK-token';
const supervisorChat = 778;

/** A stuck-prone policed task service whose notices go to Telegram at `apiRoot` (real polling). */
function setUp(t: TestContext, apiRoot: string) {
  const notifiers: Notifier[] = [];
  const fixture = createStuckFixture(notifiers);
  const telegram = createTelegramNotifier({
    token,
    chatIds: [supervisorChat],
    allowedUserIds: [1001],
    apiRoot,
    approvals: { answer: () => assert.fail('no approval expected'), get: async () => null },
    audit: fixture.audit,
    logger: silentLogger,
    pollTimeoutSeconds: 1,
    reconnectMs: 60_000,
  });
  notifiers.push(telegram);
  telegram.start();
  t.after(async () => {
    await fixture.close();
    await telegram.stop();
  });
  return fixture;
}

describe('stuck tasks reach the Telegram supervisor chat (local Bot API server, real polling)', () => {
  it('sends exactly one message with the task id, the summary and where to act', async (t) => {
    const api = await startFakeBotApi(token);
    t.after(api.close);
    const { tasks } = setUp(t, api.apiRoot);

    const { taskId, done } = await submit(tasks, { instruction: 'Save the document' });
    assert.equal((await done).status, 'max_steps');
    const photo = await api.waitForCall('sendPhoto');
    await new Promise((resolve) => setTimeout(resolve, 100));

    const sent = api.calls.filter((call) => ['sendMessage', 'sendPhoto'].includes(call.method));
    assert.equal(sent.length, 1, 'one message for one stuck event');
    assert.equal(photo.params.chat_id, String(supervisorChat));
    assert.ok((photo.photoBytes ?? 0) > 100, 'the current screen is attached');
    const caption = String(photo.params.caption);
    assert.match(caption, new RegExp(`^Task stuck: ${taskId} \\(tenant default\\)`));
    assert.match(caption, /no visible progress at step 3/);
    assert.match(caption, /Task: Save the document\nAt step 3, no visible progress for \d+ s/);
    assert.match(caption, /Recent actions: click\(@15,10\)/);
    assert.ok(caption.includes(`/dashboard/tasks/${taskId}/live`));
    assert.ok(caption.includes(`POST /v1/tasks/${taskId}/abort`));
  });

  it('ends the task normally and audits notifier-failed when Telegram is unreachable', async (t) => {
    const fixture = setUp(t, 'http://127.0.0.1:9');

    const { taskId, done } = await submit(fixture.tasks, { instruction: 'Save the document' });
    assert.equal((await done).status, 'max_steps');
    await eventually(
      async () => (await fixture.noticeFailures()).length > 0,
      'notifier-failed (notice)',
    );

    const [failure, ...more] = await fixture.noticeFailures();
    assert.deepEqual(more, []);
    assert.equal(failure?.taskId, taskId);
    assert.equal(failure?.data.notifier, 'telegram');
    assert.equal(failure?.data.notice, 'stuck');
    assert.equal((await fixture.audit.verify()).ok, true);
  });
});

describe('describeNotice', () => {
  it('fits a photo caption even with a long summary', () => {
    const text = describeNotice({
      kind: 'stuck',
      taskId: 't-1',
      tenant: 'x'.repeat(500),
      step: 7,
      summary: 'y'.repeat(5_000),
    });
    assert.ok(text.length <= 1024);
    assert.match(text, /^Task stuck: t-1 /);
  });
});

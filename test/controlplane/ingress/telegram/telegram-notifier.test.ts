import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { systemClock } from '../../../../controlplane/src/clock.js';
import { createTelegramNotifier } from '../../../../controlplane/src/ingress/telegram/telegram-notifier.js';
import { silentLogger } from '../../../support/silent-logger.js';
import {
  createApprovalsFixture,
  sampleRequest,
} from '../../governance/approvals/approvals-fixture.js';
import { startFakeBotApi } from './fake-bot-api.js';

const token = '123456:TEST-token';
const supervisorChat = 777;
const allowedUser = 1001;
const strangerUser = 666;

async function setUp(t: import('node:test').TestContext, apiRoot?: string) {
  const api = await startFakeBotApi(token);
  const fixture = createApprovalsFixture(systemClock);
  const telegram = createTelegramNotifier({
    token,
    chatIds: [supervisorChat],
    allowedUserIds: [allowedUser],
    apiRoot: apiRoot ?? api.apiRoot,
    approvals: fixture.approvals,
    audit: fixture.audit,
    logger: silentLogger,
    pollTimeoutSeconds: 1,
  });
  fixture.approvals.attach(telegram);
  telegram.start();
  t.after(async () => {
    await telegram.stop();
    await api.close();
    fixture.close();
  });
  return { api, telegram, ...fixture };
}

describe('Telegram approvals (local Bot API server, real polling)', () => {
  it('sends the screenshot with Approve/Deny buttons; refuses strangers; an allowed user approves', async (t) => {
    const { api, approvals, audit } = await setUp(t);
    const pending = approvals.request(sampleRequest);
    const photo = await api.waitForCall('sendPhoto');
    assert.equal(photo.params.chat_id, String(supervisorChat));
    assert.equal(photo.photoBytes, sampleRequest.screenshot.length);
    assert.match(
      String(photo.params.caption),
      /Approval needed: credential\nReason: type secret bank_password on bank\.example\nFrame: https:\/\/login\.bank\.example\nField: password \(autocomplete current-password\)\nTask: task-1/,
    );
    const buttons =
      (
        photo.params.reply_markup as {
          inline_keyboard: { text: string; callback_data: string }[][];
        }
      ).inline_keyboard[0] ?? [];
    assert.deepEqual(
      buttons.map((b) => b.text),
      ['Approve', 'Deny'],
    );
    const message = { chatId: supervisorChat, messageId: 100 };

    api.pressButton(strangerUser, buttons[0]?.callback_data ?? '', message);
    const refusal = await api.waitForCall('answerCallbackQuery');
    assert.equal(refusal.params.text, 'You are not allowed to answer approvals.');
    const refused = (await audit.list({ limit: 20 })).find(
      (row) => row.type === 'approval-answer-refused',
    );
    assert.equal(refused?.actor, `telegram:${strangerUser}`);
    assert.equal(refused?.taskId, 'task-1');
    assert.equal(
      (await approvals.list({ status: 'pending', limit: 5 })).length,
      1,
      'still pending',
    );

    api.pressButton(allowedUser, buttons[0]?.callback_data ?? '', message);
    const outcome = await pending;
    assert.deepEqual(outcome, {
      approved: true,
      approvalId: outcome.approvalId,
      by: `telegram:${allowedUser}`,
    });
    await api.waitForCall('answerCallbackQuery', (call) => call.params.text === 'Approved');
    const edited = await api.waitForCall('editMessageReplyMarkup');
    assert.deepEqual(edited.params, {
      chat_id: supervisorChat,
      message_id: 100,
      reply_markup: { inline_keyboard: [] },
    });
    const answered = (await audit.list({ limit: 20 })).find(
      (row) => row.type === 'approval-answered',
    );
    assert.equal(answered?.actor, `telegram:${allowedUser}`);
    assert.equal((await audit.verify()).ok, true);
  });

  it('reports a late press of an answered approval back to the user', async (t) => {
    const { api, approvals } = await setUp(t);
    const pending = approvals.request({ ...sampleRequest, screenshot: null });
    const sent = await api.waitForCall('sendMessage');
    const data =
      (sent.params.reply_markup as { inline_keyboard: { callback_data: string }[][] })
        .inline_keyboard[0]?.[1]?.callback_data ?? '';
    const [open] = await approvals.list({ status: 'pending', limit: 1 });
    await approvals.answer(open?.id ?? '', 'deny', 'api:ops');
    assert.equal((await pending).approved, false);
    api.pressButton(allowedUser, data, { chatId: supervisorChat, messageId: 100 });
    const answer = await api.waitForCall('answerCallbackQuery');
    assert.match(String(answer.params.text), /already denied/);
  });

  it('keeps approvals working through the API when Telegram is unreachable, and logs the failure', async (t) => {
    const { approvals, audit } = await setUp(t, 'http://127.0.0.1:9');
    const pending = approvals.request(sampleRequest);
    for (
      let i = 0;
      i < 100 && !(await audit.list({ limit: 50 })).some((row) => row.type === 'notifier-failed');
      i++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const failures = (await audit.list({ limit: 50 })).filter(
      (row) => row.type === 'notifier-failed',
    );
    assert.ok(failures.length >= 1);
    const [open] = await approvals.list({ status: 'pending', limit: 1 });
    await approvals.answer(open?.id ?? '', 'approve', 'api:tenant:ops/alice');
    assert.equal((await pending).approved, true);
  });
});

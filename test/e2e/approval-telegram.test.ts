import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requires } from '../support/capabilities.js';
import { submit } from '../support/submit-task.js';
import { allowedUser, startApprovalHarness, supervisorChat } from './approval-harness.js';
import { everything as searchEverything } from './support/leak-search.js';

// UI-TARS-1.5 coordinates for a 1280×800 viewport (model space 1288×812): the username input is
// centred at CSS (300, 220), the password input at (300, 320).
const loginReplies = [
  "Action: click(start_box='<|box_start|>(302,223)<|box_end|>')",
  "Action: type(content='demo')",
  "Action: click(start_box='<|box_start|>(302,325)<|box_end|>')",
  "Action: type(content='{{secret:site_password}}\\n')",
  "Action: finished(content='logged in')",
];

/** Every text the controlplane produced: database rows, its files, logs, model requests. */
function everything(
  harness: Awaited<ReturnType<typeof startApprovalHarness>>,
  extra: unknown[],
): string[] {
  return searchEverything({
    db: harness.database.db,
    dataDir: harness.dataDir,
    logLines: harness.logLines,
    modelRequests: harness.modelRequests,
    extra: [harness.api.calls, ...extra],
  });
}

describe(
  'e2e: credential approval over Telegram (real Chromium, local Bot API)',
  requires('chromium'),
  () => {
    it('asks on Telegram, refuses a stranger, types the secret after approval, and leaks it nowhere', async (t) => {
      const harness = await startApprovalHarness({ outputs: loginReplies, timeoutS: 60 });
      t.after(harness.close);
      const { taskId, done } = await submit(harness.tasks, {
        instruction: 'log in as demo',
        start_url: `${harness.site.url}/login`,
        credential_mode: 'supervisor_approved',
      });
      const photo = await harness.api.waitForCall('sendPhoto', () => true, 30_000);
      assert.equal(photo.params.chat_id, String(supervisorChat));
      assert.ok((photo.photoBytes ?? 0) > 1000, 'the current screenshot is attached');
      assert.match(
        String(photo.params.caption),
        /Approval needed: credential\nReason: type secret site_password on 127\.0\.0\.1/,
      );
      assert.match(String(photo.params.caption), new RegExp(`Task: ${taskId}`));
      const approve =
        (photo.params.reply_markup as { inline_keyboard: { callback_data: string }[][] })
          .inline_keyboard[0]?.[0]?.callback_data ?? '';
      const message = { chatId: supervisorChat, messageId: 100 };

      harness.api.pressButton(4040, approve, message);
      await harness.api.waitForCall('answerCallbackQuery', (call) =>
        /not allowed/.test(String(call.params.text)),
      );
      harness.api.pressButton(allowedUser, approve, message);
      const result = await done;

      assert.equal(result.status, 'finished', JSON.stringify(result));
      assert.deepEqual(harness.site.logins, ['demo'], 'the page accepted the typed password');
      const audit = await harness.audit.list({ limit: 1000 });
      const types = audit.map((row) => row.type);
      for (const type of [
        'task-started',
        'approval-requested',
        'approval-answer-refused',
        'approval-answered',
        'credential-typed',
        'task-ended',
      ]) {
        assert.ok(types.includes(type as never), `audit has ${type}`);
      }
      assert.equal(
        audit.find((row) => row.type === 'approval-answer-refused')?.actor,
        'telegram:4040',
      );
      assert.equal(
        audit.find((row) => row.type === 'approval-answered')?.actor,
        `telegram:${allowedUser}`,
      );
      assert.equal((await harness.audit.verify()).ok, true);

      const haystack = everything(harness, [result]);
      assert.ok(haystack.length > 10);
      const leaks = haystack.filter((text) => text.includes(harness.secret));
      assert.deepEqual(
        leaks.map((text) => text.slice(0, 200)),
        [],
        'the secret appears nowhere',
      );
      assert.ok(
        haystack.some((text) => text.includes('{{secret:site_password}}')),
        'the placeholder is what got recorded',
      );
    });

    it('ends with APPROVAL_DENIED when nobody answers before the timeout, and types nothing', async (t) => {
      const harness = await startApprovalHarness({ outputs: loginReplies, timeoutS: 1 });
      t.after(harness.close);
      const { done } = await submit(harness.tasks, {
        instruction: 'log in as demo',
        start_url: `${harness.site.url}/login`,
        credential_mode: 'supervisor_approved',
      });
      const result = await done;
      assert.equal(result.status, 'error');
      assert.equal(result.error?.code, 'APPROVAL_DENIED');
      assert.match(result.error?.message ?? '', /no supervisor answered before the timeout/);
      assert.deepEqual(harness.site.logins, []);
      const types = (await harness.audit.list({ limit: 1000 })).map((row) => row.type);
      assert.ok(types.includes('approval-expired'));
      assert.ok(!types.includes('credential-typed'));
      await harness.api.waitForCall('editMessageReplyMarkup', () => true, 5_000);
    });
  },
);

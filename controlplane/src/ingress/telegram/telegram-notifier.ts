// Approval requests to Telegram supervisor chats (grammy, long polling): the request with the
// current screenshot and Approve/Deny buttons; answers only from allow-listed user ids. Also
// plain notices (a stuck task) to the same chats.
import { createRequire } from 'node:module';
import type { Bot } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { Logger } from 'pino';
import { AppError } from '../../errors.js';
import { landingFacts } from '../../governance/approvals/approval-landing.js';
import type { ApprovalService } from '../../governance/approvals/approval-service.js';
import type { ApprovalRecord } from '../../governance/approvals/approval-types.js';
import type {
  NeedsUserNotice,
  Notifier,
  SupervisorNotice,
} from '../../governance/approvals/notifier.js';
import { appendOrLog } from '../../governance/audit/append-or-log.js';
import type { AuditLog } from '../../governance/audit/audit-log.js';
import type { RoleLock } from '../../platform/lock/role-lock.js';
import { createTelegramPolling } from './telegram-polling.js';

export interface TelegramNotifierOptions {
  token: string;
  chatIds: readonly number[];
  allowedUserIds: readonly number[];
  /** Bot API root (default https://api.telegram.org); tests point it at a local server. */
  apiRoot?: string | undefined;
  approvals: Pick<ApprovalService, 'answer' | 'get'>;
  audit: AuditLog;
  logger: Logger;
  /** Known bot identity: skips `getMe` (unit tests). */
  botInfo?: UserFromGetMe | undefined;
  /** getUpdates long-poll seconds (default 30). */
  pollTimeoutSeconds?: number | undefined;
  /** Wait between connection attempts while Telegram is unreachable (default 30 s). */
  reconnectMs?: number | undefined;
  /**
   * Replicas on one bot: getUpdates only while holding this lock (Telegram answers a second
   * poller 409). Sending needs no lock. Absent: this process polls from start to stop.
   */
  pollingLock?: RoleLock | null | undefined;
}

export interface TelegramNotifier extends Notifier {
  /** Connects and long-polls in the background; failures are logged and audited, never thrown. */
  start(): void;
  /** True while this process polls (or connects to poll): with a lock, only while holding it. */
  isPolling(): boolean;
  /** Stops polling, then gives the lock up. */
  stop(): Promise<void>;
  readonly bot: Bot;
}

const callbackPattern = /^ap:([0-9A-Za-z-]{1,40}):([ad])$/;

/** grammy (≈ 80 ms to load), loaded on the first bot only: a CLI run without Telegram never pays. */
const loadGrammy = () => createRequire(import.meta.url)('grammy') as typeof import('grammy');

export function createTelegramNotifier(options: TelegramNotifierOptions): TelegramNotifier {
  const { Bot, InlineKeyboard, InputFile } = loadGrammy();
  const logger = options.logger.child({ module: 'telegram' });
  const allowed = new Set(options.allowedUserIds);
  const bot = new Bot(options.token, {
    ...(options.botInfo ? { botInfo: options.botInfo } : {}),
    client: { ...(options.apiRoot ? { apiRoot: options.apiRoot } : {}) },
  });
  const sent = new Map<string, { chatId: number; messageId: number }[]>();
  bot.on('callback_query:data', async (ctx) => {
    const match = callbackPattern.exec(ctx.callbackQuery.data);
    if (!match) return void (await ctx.answerCallbackQuery());
    const [, id = '', choice] = match;
    const user = ctx.from.id;
    if (!allowed.has(user)) {
      await options.audit.append({
        type: 'approval-answer-refused',
        actor: `telegram:${user}`,
        taskId: (await options.approvals.get(id))?.taskId ?? null,
        data: {
          approval: id,
          username: ctx.from.username ?? null,
          reason: 'user not allow-listed',
        },
      });
      await ctx.answerCallbackQuery({
        text: 'You are not allowed to answer approvals.',
        show_alert: true,
      });
      return;
    }
    try {
      await options.approvals.answer(id, choice === 'a' ? 'approve' : 'deny', `telegram:${user}`);
      await ctx.answerCallbackQuery({ text: choice === 'a' ? 'Approved' : 'Denied' });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      await ctx.answerCallbackQuery({ text: error.message });
    }
  });
  bot.catch((error) => logger.error({ err: error.error }, 'telegram update handling failed'));
  /** Logs and audits a failure of the channel itself; never rejects. */
  const reportFailure = (error: unknown, what: string) => {
    const message = error instanceof Error ? error.message : String(error);
    logger.error({ err: error }, `telegram ${what} failed`);
    const data = { notifier: 'telegram', what, error: message.slice(0, 300) };
    return appendOrLog(options.audit, { type: 'notifier-failed', actor: 'system', data }, logger);
  };
  const polling = createTelegramPolling({
    bot,
    logger,
    reportFailure,
    retryMs: options.reconnectMs ?? 30_000,
    pollTimeoutSeconds: options.pollTimeoutSeconds,
    lock: options.pollingLock,
  });

  return {
    name: 'telegram',
    bot,
    async requestApproval(record, screenshot) {
      const keyboard = new InlineKeyboard()
        .text('Approve', `ap:${record.id}:a`)
        .text('Deny', `ap:${record.id}:d`);
      const caption = describeApproval(record);
      const messages = await Promise.all(
        options.chatIds.map(async (chatId) => {
          const message = screenshot
            ? await bot.api.sendPhoto(chatId, new InputFile(screenshot, 'screen.jpg'), {
                caption,
                reply_markup: keyboard,
              })
            : await bot.api.sendMessage(chatId, caption, { reply_markup: keyboard });
          return { chatId, messageId: message.message_id };
        }),
      );
      sent.set(record.id, messages);
    },
    async notify(notice) {
      const text = describeNotice(notice);
      await Promise.all(
        options.chatIds.map((chatId) =>
          notice.screenshot
            ? bot.api.sendPhoto(chatId, new InputFile(notice.screenshot, 'screen.jpg'), {
                caption: text,
              })
            : bot.api.sendMessage(chatId, text),
        ),
      );
    },
    async approvalClosed(record) {
      const messages = sent.get(record.id) ?? [];
      sent.delete(record.id);
      for (const { chatId, messageId } of messages) {
        await bot.api
          .editMessageReplyMarkup(chatId, messageId, { reply_markup: { inline_keyboard: [] } })
          .catch((error: unknown) =>
            logger.warn({ err: error, approvalId: record.id }, 'could not remove buttons'),
          );
      }
    },
    start: polling.start,
    isPolling: polling.isPolling,
    stop: polling.stop,
  };
}

/** The text supervisors see: what, why, which task, until when. Never secret values. */
export function describeApproval(record: ApprovalRecord): string {
  const { frame, field } = landingFacts(record.detail);
  return [
    `Approval needed: ${record.kind}`,
    `Reason: ${record.reason}`,
    ...(frame ? [`Frame: ${frame}`] : []),
    ...(field ? [`Field: ${field}`] : []),
    `Task: ${record.taskId ?? '-'} (tenant ${record.tenant})`,
    `Expires: ${new Date(record.expiresAt).toISOString()} (no answer = deny)`,
  ].join('\n');
}

/**
 * A notice as supervisors see it: which task, what it was doing (the loop's summary, as in the
 * audit log), where to watch and how to stop it. Fits a photo caption (1024 characters).
 */
export function describeNotice(notice: SupervisorNotice): string {
  if (notice.kind === 'needs_user') return describeNeedsUser(notice);
  const tenant = notice.tenant ? ` (tenant ${notice.tenant})` : '';
  return [
    `Task stuck: ${notice.taskId}${tenant}, no visible progress at step ${notice.step}`,
    notice.summary.slice(0, 600),
    `Live view: /dashboard/tasks/${notice.taskId}/live (pause, resume, abort)`,
    `Abort via API: POST /v1/tasks/${notice.taskId}/abort`,
  ]
    .join('\n')
    .slice(0, 1024);
}

/** The takeover request: why, which task, the single-use link to the interactive live view. */
export function describeNeedsUser(notice: NeedsUserNotice): string {
  const tenant = notice.tenant ? ` (tenant ${notice.tenant})` : '';
  return [
    `Task needs a person: ${notice.reason.replaceAll('_', ' ')}`,
    `Task: ${notice.taskId}${tenant}`,
    notice.summary.slice(0, 400),
    `Take over (single use, until ${new Date(notice.expiresAt).toISOString()}):`,
    notice.link,
  ]
    .filter(Boolean)
    .join('\n')
    .slice(0, 1024);
}

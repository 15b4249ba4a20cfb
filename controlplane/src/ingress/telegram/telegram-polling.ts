// The bot's getUpdates long polling, in turns: a turn connects (getMe, retried while Telegram is
// unreachable) and then polls until it is ended. Without a role lock one turn runs from start to
// stop; with one (several replicas on PostgreSQL) a turn runs only while this replica holds the
// lock, so exactly one replica polls, and a standby's turn starts when the holder's session ends.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Bot } from 'grammy';
import type { Logger } from 'pino';
import type { RoleLock } from '../../platform/lock/role-lock.js';

export interface TelegramPollingOptions {
  bot: Bot;
  logger: Logger;
  /** Logs and audits a failure of the channel itself; never rejects. */
  reportFailure(error: unknown, what: string): Promise<void>;
  /** Wait between connection attempts while Telegram is unreachable. */
  retryMs: number;
  /** getUpdates long-poll seconds (grammy's default 30). */
  pollTimeoutSeconds?: number | undefined;
  /** Polls only while holding it (replicas); absent: polls from start to stop. */
  lock?: RoleLock | null | undefined;
}

export interface TelegramPolling {
  /** Starts polling (or contending for the lock) in the background; never throws. */
  start(): void;
  /** True while a turn runs (connecting or polling; not after polling failed for good). */
  isPolling(): boolean;
  /** Ends the turn, then gives the lock up; idempotent. */
  stop(): Promise<void>;
}

/** Telegram's answer to a getUpdates while another one of the same bot is pending (a GrammyError). */
const isConflict = (error: unknown) =>
  typeof error === 'object' && error !== null && 'error_code' in error && error.error_code === 409;

export function createTelegramPolling(options: TelegramPollingOptions): TelegramPolling {
  const { bot, logger, lock } = options;
  const stopping = new AbortController();
  let turn: { ended: AbortController; done: Promise<void>; running: boolean } | null = null;
  // Turn changes run one after another: a lost lock's turn has ended before the next begins.
  let changes: Promise<void> = Promise.resolve();

  /**
   * grammy retries `getMe` forever without a way to stop it, so connect ourselves: one attempt
   * at a time, the first failure of an outage audited, then long polling once reachable.
   */
  async function connectThenPoll(ended: AbortSignal): Promise<void> {
    let reported = false;
    while (!bot.isInited()) {
      try {
        // grammy types its signal with the abort-controller polyfill; the runtime takes the native one.
        bot.botInfo = await bot.api.getMe(ended as Parameters<typeof bot.api.getMe>[0]);
      } catch (error) {
        if (ended.aborted) return;
        if (!reported) await options.reportFailure(error, 'connect');
        reported = true;
        await sleep(options.retryMs, undefined, { signal: ended }).catch(() => undefined);
        if (ended.aborted) return;
      }
    }
    if (reported) logger.info('telegram reachable again');
    for (;;) {
      try {
        return await bot.start({
          allowed_updates: ['callback_query'],
          ...(options.pollTimeoutSeconds !== undefined
            ? { timeout: options.pollTimeoutSeconds }
            : {}),
        });
      } catch (error) {
        // Holding the lock, a conflict is another poller's last call (a former holder's stop)
        // or a poller outside this store: poll again. Without a lock it ends polling, as before.
        if (ended.aborted || !lock || !isConflict(error)) throw error;
        logger.warn('getUpdates conflict (another poller of this bot); polling again');
        await sleep(options.retryMs, undefined, { signal: ended }).catch(() => undefined);
        if (ended.aborted) return;
      }
    }
  }

  const begin = () => {
    if (turn || stopping.signal.aborted) return;
    const ended = new AbortController();
    const current = { ended, done: Promise.resolve(), running: true };
    current.done = connectThenPoll(AbortSignal.any([ended.signal, stopping.signal]))
      .catch((error: unknown) => options.reportFailure(error, 'polling'))
      .finally(() => {
        current.running = false;
      });
    turn = current;
  };

  const end = async () => {
    const current = turn;
    if (!current) return;
    current.ended.abort();
    if (bot.isRunning()) {
      await bot
        .stop()
        .catch((error: unknown) => logger.warn({ err: error }, 'telegram stop failed'));
    }
    await current.done;
    turn = null;
  };

  const change = (held: boolean) => {
    changes = changes.then(() => (held ? begin() : end()));
  };

  return {
    start() {
      if (lock) lock.start(change);
      else begin();
    },
    isPolling: () => turn?.running ?? false,
    async stop() {
      stopping.abort();
      await changes;
      await end();
      // Only then: another replica may poll once the lock is free.
      await lock?.close();
    },
  };
}

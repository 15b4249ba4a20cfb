// The notify channel over PostgreSQL LISTEN/NOTIFY: one dedicated connection listens (it cannot
// come from the pool: a pooled connection is shared and LISTEN is per session), notifications are
// sent through the pool. A lost listening connection is reopened with backoff and every channel
// listened again; `onResumed` then tells readers to re-read what they may have missed.

import pg from 'pg';
import type { Logger } from 'pino';
import {
  checkPayload,
  type NotifyChannel,
  type NotifyListener,
} from '../../notify/notify-channel.js';

export interface PgNotifyOptions {
  /** The database to listen on (`postgres://…`). */
  url: string;
  /** Where notifications are sent from: the store's pool. */
  pool: pg.Pool;
  logger: Logger;
  /** First reconnect delay, doubled up to `maxRetryMs`. Default 250 / 5000 ms. */
  retryMs?: number;
  maxRetryMs?: number;
}

const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function checkChannel(channel: string): string {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`bad notify channel name: ${channel}`);
  return channel;
}

/** Resolves once the first connection listens; rejects when the server cannot be reached. */
export async function openPgNotifyChannel(options: PgNotifyOptions): Promise<NotifyChannel> {
  const logger = options.logger.child({ module: 'pg-notify' });
  const listeners = new Map<string, Set<NotifyListener>>();
  const resumed = new Set<() => void>();
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  let delay = options.retryMs ?? 250;

  const deliver = (message: pg.Notification) => {
    for (const listener of [...(listeners.get(message.channel) ?? [])])
      listener(message.payload ?? '');
  };

  const connect = async (): Promise<pg.Client> => {
    const next = new pg.Client({
      connectionString: options.url,
      application_name: 'clawdie-notify',
      connectionTimeoutMillis: 10_000,
      keepAlive: true,
    });
    next.on('notification', deliver);
    // Without a listener a dropped connection's error would crash the process.
    next.on('error', (error) => lost(next, error));
    next.on('end', () => lost(next, null));
    await next.connect();
    for (const channel of listeners.keys()) await next.query(`LISTEN "${channel}"`);
    return next;
  };

  const lost = (which: pg.Client, error: Error | null) => {
    if (which !== client || closed) return;
    client = null;
    logger.warn({ err: error ?? undefined }, 'notify connection lost; reconnecting');
    which.end().catch(() => {});
    schedule();
  };

  const schedule = () => {
    if (closed || retry) return;
    retry = setTimeout(async () => {
      retry = null;
      try {
        client = await connect();
        delay = options.retryMs ?? 250;
        logger.info('notify connection back; readers re-read');
        for (const listener of [...resumed]) listener();
      } catch (error) {
        logger.warn({ err: error, retryMs: delay }, 'notify reconnect failed');
        delay = Math.min(delay * 2, options.maxRetryMs ?? 5_000);
        schedule();
      }
    }, delay);
    retry.unref();
  };

  client = await connect();

  return {
    async listen(channel, listener) {
      if (closed) throw new Error('the notify channel is closed');
      checkChannel(channel);
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        // While reconnecting, the new connection listens to it on connect.
        await client?.query(`LISTEN "${channel}"`);
      }
      set.add(listener);
      return async () => {
        set.delete(listener);
        if (set.size > 0 || listeners.get(channel) !== set) return;
        listeners.delete(channel);
        await client?.query(`UNLISTEN "${channel}"`).catch(() => {});
      };
    },
    async notify(channel, payload) {
      if (closed) throw new Error('the notify channel is closed');
      checkPayload(payload);
      await options.pool.query('SELECT pg_notify($1, $2)', [checkChannel(channel), payload]);
    },
    onResumed(listener) {
      resumed.add(listener);
      return () => resumed.delete(listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      if (retry) clearTimeout(retry);
      const last = client;
      client = null;
      listeners.clear();
      resumed.clear();
      await last?.end().catch(() => {});
    },
  };
}

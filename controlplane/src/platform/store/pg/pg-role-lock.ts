// The role lock over PostgreSQL: a session-level advisory lock (pg_try_advisory_lock), taken on a
// dedicated connection (a pooled one is shared, and the lock belongs to the session). Whoever
// holds it keeps it while its session lives and checks that session every `retryMs`; the others
// try again every `retryMs`. A holder that dies ends its session, PostgreSQL releases the lock at
// once, and a waiting replica takes it at its next try. A holder whose machine vanished leaves an
// idle session behind: the server ends it after `idle_session_timeout` (set here per session, on
// PostgreSQL 14+), while the holder itself gives the role up when a check fails, before that. A
// replica that lost the role waits two periods more before trying again, so a standby takes it.
import pg from 'pg';
import type { Logger } from 'pino';
import type { RoleLock } from '../../lock/role-lock.js';

export interface PgRoleLockOptions {
  /** The database (`postgres://…`) every replica of the role uses. */
  url: string;
  /** Names the role: its lock key is `hashtext('clawdie.role:' || name)`. */
  name: string;
  logger: Logger;
  /** Between tries while another replica holds the role, and between checks of a held one. */
  retryMs: number;
}

export function createPgRoleLock(options: PgRoleLockOptions): RoleLock {
  const logger = options.logger.child({ module: 'pg-role-lock', role: options.name });
  const key = `clawdie.role:${options.name}`;
  // A check slower than this counts as a lost session; the server ends an idle one after it and
  // two periods more, so a holder cut off from the database stops before another one starts.
  const checkMs = Math.max(options.retryMs, 1_000);
  const idleSessionMs = 2 * options.retryMs + checkMs;
  let client: pg.Client | null = null;
  let held = false;
  let closed = false;
  let failing = false;
  /** A replica that lost the role steps back two periods, so that a standby takes it over. */
  let backOffUntil = 0;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let onChange: (held: boolean) => void = () => {};

  /** Ends `which` (its session, and with it the lock); reports the loss of a held role. */
  const drop = (which: pg.Client) => {
    if (which !== client) return;
    client = null;
    which.end().catch(() => {});
    if (!held) return;
    held = false;
    backOffUntil = Date.now() + 2 * options.retryMs;
    logger.warn('lost the role: its database session ended; trying again');
    if (!closed) onChange(false);
  };

  const connect = async (): Promise<pg.Client> => {
    const next = new pg.Client({
      connectionString: options.url,
      application_name: 'clawdie-role',
      connectionTimeoutMillis: 10_000,
      query_timeout: checkMs,
      keepAlive: true,
    });
    // Without a listener a dropped connection's error would crash the process.
    next.on('error', () => drop(next));
    next.on('end', () => drop(next));
    try {
      await next.connect();
      await next
        .query(`SET idle_session_timeout = ${idleSessionMs}`)
        .catch((error: unknown) =>
          logger.debug({ err: error }, 'idle_session_timeout unsupported (PostgreSQL < 14)'),
        );
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    return next;
  };

  const attempt = async () => {
    if (Date.now() < backOffUntil) return;
    let which: pg.Client | null = client;
    try {
      if (!which) {
        which = await connect();
        client = which;
      }
      if (held) await which.query('SELECT 1');
      else {
        const { rows } = await which.query<{ held: boolean }>(
          'SELECT pg_try_advisory_lock(hashtext($1)) AS held',
          [key],
        );
        if (rows[0]?.held === true && which === client && !closed) {
          held = true;
          logger.info('holding the role');
          onChange(true);
        }
      }
      if (failing) logger.info('the role lock reaches the database again');
      failing = false;
    } catch (error) {
      if (!failing) logger.warn({ err: error }, 'role lock check failed; trying again');
      failing = true;
      if (which) drop(which);
    }
  };

  const loop = () => {
    timer = null;
    running = attempt().finally(() => {
      running = null;
      if (closed) return;
      timer = setTimeout(loop, options.retryMs);
      timer.unref();
    });
  };

  return {
    start(listener) {
      onChange = listener;
      if (!closed && !timer && !running) loop();
    },
    async close() {
      if (closed) return;
      closed = true;
      if (timer) clearTimeout(timer);
      await running;
      held = false;
      const last = client;
      client = null;
      // Ending the session releases the lock.
      await last?.end().catch(() => {});
    },
  };
}

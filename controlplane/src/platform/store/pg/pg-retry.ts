// Riding out a PostgreSQL restart or failover: a statement that fails because the connection was
// lost (or could not be made) is retried on a new connection with backoff until a deadline, so a
// restart of a few seconds costs latency, not a failed write. Errors about the statement itself
// (constraints, syntax, timeouts) are never retried.
import { sleep } from '@clawdie/kit/timing';
import type pg from 'pg';

/** SQLSTATEs and socket codes that mean "no usable connection", not "this statement is wrong". */
const CONNECTION_CODES = new Set([
  '57P01', // admin_shutdown: the server is stopping
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOENT', // the Unix socket is gone while the server is down
  'EPIPE',
  'ETIMEDOUT',
]);

const CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|Client has encountered a connection error|Client was closed|the database system is (starting up|shutting down)/i;

/** True when `error` says the connection was lost or could not be made. */
export function isConnectionLoss(error: unknown): boolean {
  // drizzle wraps the driver's error ("Failed query: …") with the driver's as its cause.
  for (let at = error, depth = 0; at instanceof Error && depth < 4; at = at.cause, depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
    if (CONNECTION_MESSAGES.test(at.message)) return true;
  }
  return false;
}

export interface RetryOptions {
  /** Longest a call keeps retrying, from its first failure. Default 30 000 ms. */
  deadlineMs?: number;
  /** First pause between attempts, doubled up to 2 s. Default 100 ms. */
  retryMs?: number;
  /** Told once per retried failure (the caller logs it). */
  onRetry?: (error: Error, attempt: number) => void;
}

/** Calls `attempt` again while it fails with a connection loss, until the deadline. */
export async function retryConnectionLoss<T>(
  attempt: () => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const deadline = Date.now() + (options.deadlineMs ?? 30_000);
  let pause = options.retryMs ?? 100;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isConnectionLoss(error) || Date.now() + pause > deadline) throw error;
      options.onRetry?.(error as Error, n);
      await sleep(pause);
      pause = Math.min(pause * 2, 2_000);
    }
  }
}

type Callable = (...args: unknown[]) => unknown;

/**
 * Makes `pool.connect()` and `pool.query()` (promise forms: what drizzle uses) retry connection
 * losses. A transaction is retried only at its `connect`: one that loses its connection midway
 * fails (its statements were rolled back), and callers that must not fail retry it whole.
 */
export function retryPoolConnections(pool: pg.Pool, options: RetryOptions = {}): void {
  const connect = pool.connect.bind(pool) as Callable;
  const query = pool.query.bind(pool) as Callable;
  const patched = pool as unknown as { connect: Callable; query: Callable };
  // A checked-out client the server drops between statements (idle in a transaction) emits
  // 'error' with nobody listening, which would crash the process; its next query fails instead.
  // And a query that loses the connection gives the client back at once: drizzle's transaction
  // runs BEGIN outside its try, so a BEGIN that fails would otherwise keep the client checked
  // out for good (the pool shrinks with every restart, and `end()` never returns).
  const guarded = new WeakSet<pg.PoolClient>();
  const guard = (client: pg.PoolClient) => {
    const release = client.release.bind(client);
    let released = false;
    // pg-pool sets a new `release` at every checkout: this one is idempotent.
    client.release = (error?: Error | boolean) => {
      if (released) return;
      released = true;
      release(error);
    };
    if (guarded.has(client)) return client;
    guarded.add(client);
    client.on('error', () => {});
    const query = client.query.bind(client) as Callable;
    (client as unknown as { query: Callable }).query = (...args) => {
      if (typeof args.at(-1) === 'function') return query(...args);
      return (query(...args) as Promise<unknown>).catch((error: unknown) => {
        if (isConnectionLoss(error)) client.release(error as Error);
        throw error;
      });
    };
    return client;
  };
  patched.connect = (...args) =>
    typeof args[0] === 'function'
      ? connect(...args)
      : retryConnectionLoss(async () => guard((await connect()) as pg.PoolClient), options);
  patched.query = (...args) =>
    typeof args.at(-1) === 'function'
      ? query(...args)
      : retryConnectionLoss(() => query(...args) as Promise<unknown>, options);
}

// One holder at a time, among the processes on one store, of a role that must not run twice at
// once (Telegram's getUpdates long polling: a second poller of the same bot gets 409). Only
// replicas on PostgreSQL need one: a session-level advisory lock (store/pg/pg-role-lock.ts). On
// SQLite one process serves a data dir and there is none (`Stores.roleLock` gives null).

export interface RoleLock {
  /**
   * Starts contending for the role: `onChange(true)` once this process holds it, `onChange(false)`
   * when it lost it (its database session ended), then it contends again. Calls alternate,
   * starting with `true`; `onChange` must not throw. Call once.
   */
  start(onChange: (held: boolean) => void): void;
  /** Gives the role up and stops contending (no further `onChange`); idempotent. */
  close(): Promise<void>;
}

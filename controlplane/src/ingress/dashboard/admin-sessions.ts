import { createHash, randomBytes } from 'node:crypto';
import type { DashboardSessionStore } from '../../platform/store/dashboard-session-repository.js';

/**
 * Server-side admin sessions of the dashboard: the cookie holds only a random id. In memory for
 * one process (lost on restart, by design); in the store when replicas share PostgreSQL, so that
 * a login through one replica holds on every other and a logout ends it everywhere.
 */
export interface AdminSessions {
  /** A new session; returns the id the cookie carries. */
  create(): Promise<string>;
  /** Whether `id` is a live session (an expired one is deleted). */
  valid(id: string | undefined): Promise<boolean>;
  end(id: string | undefined): Promise<void>;
}

const newId = () => randomBytes(32).toString('base64url');

/** One process's sessions: a Map of id → expiry. Lost on restart, by design. */
export class MemoryAdminSessions implements AdminSessions {
  readonly #sessions = new Map<string, number>();
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(ttlMs: number, now: () => number = Date.now) {
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  async create(): Promise<string> {
    const id = newId();
    this.#sessions.set(id, this.#now() + this.#ttlMs);
    return id;
  }

  async valid(id: string | undefined): Promise<boolean> {
    if (!id) return false;
    const expires = this.#sessions.get(id);
    if (expires === undefined) return false;
    if (expires > this.#now()) return true;
    this.#sessions.delete(id);
    return false;
  }

  async end(id: string | undefined): Promise<void> {
    if (id) this.#sessions.delete(id);
  }
}

/** The SHA-256 (hex) a stored session is keyed by: the cookie's id itself is never stored. */
export const sessionIdHash = (id: string): string => createHash('sha256').update(id).digest('hex');

/**
 * Sessions every replica shares through the store. Each login first deletes the expired rows, so
 * the table holds live sessions plus those expired since the last login.
 */
export class StoredAdminSessions implements AdminSessions {
  readonly #store: DashboardSessionStore;
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(store: DashboardSessionStore, ttlMs: number, now: () => number = Date.now) {
    this.#store = store;
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  async create(): Promise<string> {
    const id = newId();
    const now = this.#now();
    await this.#store.removeExpired(now);
    await this.#store.put({
      idHash: sessionIdHash(id),
      expiresAt: now + this.#ttlMs,
      createdAt: now,
    });
    return id;
  }

  async valid(id: string | undefined): Promise<boolean> {
    if (!id) return false;
    const idHash = sessionIdHash(id);
    const expires = await this.#store.expiresAt(idHash);
    if (expires === null) return false;
    if (expires > this.#now()) return true;
    await this.#store.remove(idHash);
    return false;
  }

  async end(id: string | undefined): Promise<void> {
    if (id) await this.#store.remove(sessionIdHash(id));
  }
}

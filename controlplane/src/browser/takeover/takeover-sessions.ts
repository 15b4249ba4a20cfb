import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { Clock } from '../../clock.js';

export const TAKEOVER_COOKIE = 'clawdie_takeover';

export interface TakeoverSession {
  taskId: string;
  tenant: string;
  user: string;
  expiresAt: number;
}

/**
 * Supervisor sessions opened by redeeming a takeover link: the HttpOnly, SameSite=Strict cookie
 * (scoped to the task's /takeover path) holds only a random id; the session is bound to that
 * one task and ends with the takeover's deadline. In memory, by design.
 */
export class TakeoverSessions {
  readonly #sessions = new Map<string, TakeoverSession>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  start(c: Context, session: TakeoverSession): void {
    const id = randomBytes(32).toString('base64url');
    this.#sessions.set(id, session);
    setCookie(c, TAKEOVER_COOKIE, id, {
      path: `/takeover/${session.taskId}`,
      httpOnly: true,
      sameSite: 'Strict',
      secure: new URL(c.req.url).protocol === 'https:',
      maxAge: Math.max(1, Math.floor((session.expiresAt - this.#clock.now()) / 1000)),
    });
  }

  /** The session of this request for `taskId`, or null (none, expired, or another task's). */
  of(c: Context, taskId: string): TakeoverSession | null {
    const id = getCookie(c, TAKEOVER_COOKIE);
    const session = id ? this.#sessions.get(id) : undefined;
    if (!id || !session) return null;
    if (session.expiresAt <= this.#clock.now()) {
      this.#sessions.delete(id);
      return null;
    }
    return session.taskId === taskId ? session : null;
  }
}

// Signed, single-use, short-lived takeover links: an HMAC-SHA256 token over the task id, the
// tenant and user it was issued to, an expiry and a random id. Redeeming records the id until
// the expiry, so a link works once and nothing of it outlives its TTL.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../clock.js';
import { TakeoverError } from './takeover-error.js';

export interface LinkClaims {
  /** Task id. */
  task: string;
  tenant: string;
  /** Who the link was issued to: `tenant:<t>/<subject>` or `telegram-supervisors`. */
  user: string;
  /** Expiry, ms since the epoch. */
  exp: number;
  /** Random id: the single-use key. */
  jti: string;
}

export interface TakeoverLinks {
  readonly ttlMs: number;
  /** A token for `task`, issued to `user` of `tenant`, valid for `ttlMs`. */
  mint(claims: Pick<LinkClaims, 'task' | 'tenant' | 'user'>): { token: string; expiresAt: number };
  /**
   * Checks signature, task and expiry, then spends the token. Throws TakeoverError
   * TAKEOVER_LINK_INVALID / _EXPIRED / _USED.
   */
  redeem(token: string, taskId: string): LinkClaims;
  /** The same checks as `redeem`, without spending the token (the confirm page). */
  check(token: string, taskId: string): LinkClaims;
}

export interface TakeoverLinksOptions {
  clock: Clock;
  /** Link lifetime (default 10 min). */
  ttlMs?: number;
  /** HMAC key (default: 32 random bytes per process, so links die with a restart). */
  key?: Buffer;
}

export function createTakeoverLinks(options: TakeoverLinksOptions): TakeoverLinks {
  const key = options.key ?? randomBytes(32);
  const ttlMs = options.ttlMs ?? 10 * 60_000;
  const spent = new Map<string, number>();
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest();

  const prune = (now: number) => {
    for (const [jti, exp] of spent) if (exp <= now) spent.delete(jti);
  };

  function check(token: string, taskId: string): LinkClaims {
    const now = options.clock.now();
    prune(now);
    const [payload = '', mac = ''] = token.split('.');
    const given = Buffer.from(mac, 'base64url');
    const expected = sign(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new TakeoverError('TAKEOVER_LINK_INVALID', 'the takeover link is not valid');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as LinkClaims;
    if (claims.task !== taskId)
      throw new TakeoverError('TAKEOVER_LINK_INVALID', 'the takeover link is for another task');
    if (claims.exp <= now)
      throw new TakeoverError('TAKEOVER_LINK_EXPIRED', 'the takeover link has expired');
    if (spent.has(claims.jti))
      throw new TakeoverError('TAKEOVER_LINK_USED', 'the takeover link was already used');
    return claims;
  }

  return {
    ttlMs,
    mint(claims) {
      const exp = options.clock.now() + ttlMs;
      const full: LinkClaims = { ...claims, exp, jti: randomBytes(16).toString('base64url') };
      const payload = Buffer.from(JSON.stringify(full)).toString('base64url');
      return { token: `${payload}.${sign(payload).toString('base64url')}`, expiresAt: exp };
    },
    check,
    redeem(token, taskId) {
      const claims = check(token, taskId);
      spent.set(claims.jti, claims.exp);
      return claims;
    },
  };
}

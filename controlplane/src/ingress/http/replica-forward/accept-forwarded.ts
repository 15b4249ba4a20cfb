// The receiving side of replica forwarding: a request that carries any forward header is either
// a valid forward from another replica (its principal and client address are then believed, and
// it is handled here, never forwarded again) or refused 401 and counted like any auth failure.
import type { MiddlewareHandler } from 'hono';
import type { AuthFailureLimiter } from '../../../governance/auth/auth-failure-limiter.js';
import { clientAddress } from '../client-address.js';
import {
  FORWARD_HEADER_PREFIX,
  type ForwardClaims,
  type ForwardRefusal,
  verifyForward,
} from './forward-signature.js';

declare module 'hono' {
  interface ContextVariableMap {
    /** Set on a request another replica forwarded (verified): handled here, never forwarded on. */
    forwarded: ForwardClaims;
  }
}

/** What this replica checks forwards with; null: it accepts none (one process, SQLite). */
export interface ForwardVerifier {
  self: string;
  key: Buffer;
  now: () => number;
}

/** `path?query` of a request, as the sender signed it. */
export const targetOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

const hasBody = (method: string) => method !== 'GET' && method !== 'HEAD';

/**
 * Middleware factory: verifies forwarded requests before any route. Refusals (a forged or stale
 * signature, a replay, a forward for another replica, forward headers where none are accepted)
 * answer 401 `FORWARD_REFUSED`-style codes and are recorded in the app's one failure limiter.
 */
export function acceptForwarded(
  verifier: ForwardVerifier | null,
  failures: AuthFailureLimiter,
): MiddlewareHandler {
  const seen = new Map<string, number>();
  return async function acceptForwardedRequest(c, next) {
    const names = [...c.req.raw.headers.keys()];
    if (!names.some((name) => name.startsWith(FORWARD_HEADER_PREFIX))) return next();
    const refuse = async (refusal: ForwardRefusal | { code: string; message: string }) => {
      const source = clientAddress(c);
      const retryAfter = failures.retryAfterSeconds(source);
      const failure = {
        actor: 'anonymous',
        method: c.req.method,
        path: c.req.path,
        code: refusal.code,
        scope: 'replica-forward',
      };
      await failures.record(source, failure, retryAfter !== null);
      if (retryAfter !== null)
        return c.json(
          { error: { code: 'TOO_MANY_AUTH_FAILURES', message: 'too many failed requests' } },
          429,
          { 'retry-after': String(retryAfter) },
        );
      return c.json({ error: refusal }, 401);
    };
    if (!verifier)
      return refuse({
        code: 'FORWARD_NOT_ACCEPTED',
        message: 'this controlplane accepts no requests forwarded by replicas',
      });
    const body = hasBody(c.req.method) ? new Uint8Array(await c.req.arrayBuffer()) : null;
    const outcome = verifyForward(
      verifier.key,
      { method: c.req.method, target: targetOf(c.req.url), body },
      (name) => c.req.header(name),
      { self: verifier.self, now: verifier.now(), seen },
    );
    if ('refusal' in outcome) return refuse(outcome.refusal);
    c.set('forwarded', outcome.claims);
    if (outcome.claims.client) c.set('clientAddress', outcome.claims.client);
    await next();
    return undefined;
  };
}

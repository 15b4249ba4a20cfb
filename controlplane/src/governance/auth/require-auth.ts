import type { MiddlewareHandler } from 'hono';
import { clientAddress } from '../../ingress/http/client-address.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { TokenVerifier } from './api-tokens.js';
import { type AuthFailureLimiter, createAuthFailureLimiter } from './auth-failure-limiter.js';
import { createBearerCheck } from './bearer-check.js';
import { actorOf, hasScope, type Principal, type Scope } from './scopes.js';

declare module 'hono' {
  interface ContextVariableMap {
    /** The verified caller, set by `requireAuth()` (or the loopback principal when auth is off). */
    principal: Principal;
  }
}

export interface RequireAuthOptions {
  verifier: TokenVerifier;
  audit: AuditLog;
  realm?: string;
  /** Counts and limits failures per client address (default: 30 a minute, `config.authFailures`). */
  failures?: AuthFailureLimiter;
}

/**
 * Bearer-token middleware factory: `requireAuth(options)(scope)` guards one route with the scope
 * its route-table entry names (`http/route-table.ts`); every guard shares one failure limiter.
 * Answers 401 with `WWW-Authenticate` for a missing, invalid, expired or
 * wrong-audience token; 403 for a token without the route's scope; 429 with `Retry-After` for a
 * failing request from an address past its failure limit (a valid token still passes). JSON
 * error bodies; refusals are audited per address and window (`auth-failed`, never with the token
 * itself), not one row each.
 */
export function requireAuth(options: RequireAuthOptions): (scope: Scope) => MiddlewareHandler {
  const realm = options.realm ?? 'clawdie';
  const failures =
    options.failures ??
    createAuthFailureLimiter({ audit: options.audit, limit: 30, windowMs: 60_000 });
  const bearer = createBearerCheck(options.verifier);
  return (needed) =>
    async function requireAuthMiddleware(c, next) {
      /** Counts the refusal (its row, if any, committed first) and answers it. */
      const refuse = async (status: 401 | 403, code: string, message: string, actor: string) => {
        const source = clientAddress(c);
        const retryAfter = failures.retryAfterSeconds(source);
        const failure = { actor, method: c.req.method, path: c.req.path, code, scope: needed };
        await failures.record(source, failure, retryAfter !== null);
        if (retryAfter !== null) {
          return c.json(
            { error: { code: 'TOO_MANY_AUTH_FAILURES', message: 'too many failed requests' } },
            429,
            { 'Retry-After': String(retryAfter) },
          );
        }
        const challenge =
          status === 401
            ? `Bearer realm="${realm}", error="invalid_token"`
            : `Bearer realm="${realm}", error="insufficient_scope", scope="${needed}"`;
        return c.json({ error: { code, message } }, status, { 'WWW-Authenticate': challenge });
      };
      const outcome = await bearer(c);
      if ('refusal' in outcome) {
        return refuse(401, outcome.refusal.code, outcome.refusal.message, 'anonymous');
      }
      const { principal } = outcome;
      if (!hasScope(principal, needed)) {
        return refuse(
          403,
          'SCOPE_MISSING',
          `this request needs the ${needed} scope`,
          actorOf(principal),
        );
      }
      c.set('principal', principal);
      await next();
      return undefined;
    };
}

import type { MiddlewareHandler } from 'hono';
import type { AuditLog } from '../audit/audit-log.js';
import type { TokenVerifier } from './api-tokens.js';
import { AuthError } from './auth-errors.js';
import { runAs } from './request-principal.js';
import { actorOf, hasScope, type Principal, type Scope, scopeForRequest } from './scopes.js';

declare module 'hono' {
  interface ContextVariableMap {
    /** The verified caller, set by `requireAuth()` (or the loopback principal when auth is off). */
    principal: Principal;
  }
}

export interface RequireAuthOptions {
  verifier: TokenVerifier;
  audit: AuditLog;
  /** The scope a request needs (default: `scopeForRequest`). */
  scopeFor?: (method: string, path: string) => Scope;
  realm?: string;
}

/**
 * Bearer-token middleware: 401 with `WWW-Authenticate` for a missing, invalid, expired or
 * wrong-audience token; 403 for a token without the route's scope. JSON error bodies; every
 * refusal is audited (`auth-failed`, never with the token itself).
 */
export function requireAuth(options: RequireAuthOptions): MiddlewareHandler {
  const scopeFor = options.scopeFor ?? scopeForRequest;
  const realm = options.realm ?? 'clawdie';
  return async function requireAuthMiddleware(c, next) {
    const needed = scopeFor(c.req.method, c.req.path);
    const refuse = (status: 401 | 403, code: string, message: string, actor: string) => {
      options.audit.append({
        type: 'auth-failed',
        actor,
        data: { method: c.req.method, path: c.req.path, code, scope: needed },
      });
      const challenge =
        status === 401
          ? `Bearer realm="${realm}", error="invalid_token"`
          : `Bearer realm="${realm}", error="insufficient_scope", scope="${needed}"`;
      return c.json({ error: { code, message } }, status, { 'WWW-Authenticate': challenge });
    };
    let principal: Principal;
    try {
      principal = await options.verifier.verify(c.req.header('authorization'));
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      return refuse(401, error.code, error.message, 'anonymous');
    }
    if (!hasScope(principal, needed)) {
      return refuse(
        403,
        'SCOPE_MISSING',
        `this request needs the ${needed} scope`,
        actorOf(principal),
      );
    }
    c.set('principal', principal);
    await runAs(principal, next);
    return undefined;
  };
}

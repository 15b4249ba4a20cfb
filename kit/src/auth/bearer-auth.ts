// Bearer-token auth for the services that accept one static token (the jail-service, hostd):
// Hono's `bearerAuth` reads the `Authorization` header, our check compares the token in constant
// time, and each service answers a refusal with its own JSON body.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';

/**
 * What `Authorization: Bearer <token>` can carry (RFC 6750 `b64token`, the syntax Hono's
 * `bearerAuth` accepts): a configured token outside it could never be presented.
 */
export const bearerTokenSyntax = /^[A-Za-z0-9._~+/-]+=*$/;

/** Throws unless `token` can be sent as a bearer token; `what` names it in the message. */
export function assertBearerToken(token: string, what: string): void {
  if (!bearerTokenSyntax.test(token)) {
    throw new Error(
      `${what} may contain only letters, digits and -._~+/ (then = padding), as a bearer token must`,
    );
  }
}

/**
 * A check accepting exactly `expected`: both sides are hashed first, so the comparison is
 * constant-time and does not leak the token's length.
 */
export function sameToken(expected: string): (given: string) => boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  const wanted = digest(expected);
  return (given) => timingSafeEqual(digest(given), wanted);
}

/**
 * Why a request was refused: no `Authorization` header, one that is not `Bearer <b64token>`, or
 * the wrong token.
 */
export type BearerRefusal = 'missing' | 'malformed' | 'invalid';

export interface RequireBearerOptions {
  /** The one accepted token; must not be empty. */
  token: string;
  /** The 401 answer; Hono adds a `WWW-Authenticate` challenge when it sets none. */
  refuse: (c: Context, reason: BearerRefusal) => Response;
}

/**
 * Refuses every request without `Authorization: Bearer <token>` (scheme case-insensitive) with
 * `refuse`'s response, thrown as an HTTPException for `app.onError` to return.
 */
export function requireBearer(options: RequireBearerOptions): MiddlewareHandler {
  if (options.token.length === 0) throw new Error('requireBearer: the token must not be empty');
  assertBearerToken(options.token, 'the bearer token');
  const matches = sameToken(options.token);
  return bearerAuth({
    verifyToken: (given) => matches(given),
    noAuthenticationHeader: { message: (c) => options.refuse(c, 'missing') },
    invalidAuthenticationHeader: { message: (c) => options.refuse(c, 'malformed') },
    invalidToken: { message: (c) => options.refuse(c, 'invalid') },
  });
}

import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { UnauthorizedError } from './errors.js';

export interface RequireBearerOptions {
  /** The one accepted token; must not be empty. */
  token: string;
}

/**
 * Rejects every request without `Authorization: Bearer <token>` (401 UNAUTHORIZED via
 * `app.onError`). Both sides are hashed first, so the comparison is constant-time and does not
 * leak the token's length.
 */
export function requireBearer(options: RequireBearerOptions): MiddlewareHandler {
  if (options.token.length === 0) throw new Error('requireBearer: the token must not be empty');
  const expected = digest(options.token);
  return async function requireBearerToken(c, next) {
    const header = c.req.header('authorization');
    if (header === undefined) throw new UnauthorizedError('missing Authorization: Bearer header');
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (!match?.[1] || !timingSafeEqual(digest(match[1]), expected)) {
      throw new UnauthorizedError('invalid bearer token');
    }
    await next();
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

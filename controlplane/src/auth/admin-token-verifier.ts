// The API's bearer check when auth is required but no JWKS file exists yet (a first `npm start`):
// the admin token (CLAWDIE_ADMIN_TOKEN, or the one-off token `npm start` prints) is the only
// accepted credential, with admin scope for tenant `default`.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { TokenVerifier } from './api-tokens.js';
import { AuthError } from './auth-errors.js';
import type { Principal } from './scopes.js';

const adminPrincipal: Principal = {
  tenant: 'default',
  subject: 'admin-token',
  scopes: ['admin'],
  via: 'token',
};

/** Accepts exactly `Authorization: Bearer <adminToken>` (constant-time compare). */
export function createAdminTokenVerifier(adminToken: string): TokenVerifier {
  if (adminToken.length < 16) throw new Error('the admin token must be at least 16 characters');
  const expected = digest(adminToken);
  return {
    async verify(authorization) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
      if (!match?.[1]) {
        throw new AuthError(
          'TOKEN_MISSING',
          'missing bearer token: send Authorization: Bearer <admin token printed at start>',
        );
      }
      if (!timingSafeEqual(digest(match[1]), expected)) {
        throw new AuthError('TOKEN_INVALID', 'invalid bearer token');
      }
      return adminPrincipal;
    },
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

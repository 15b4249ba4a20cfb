// The API's bearer check when auth is required but no JWKS file exists yet (a first `npm start`):
// the admin token (CLAWDIE_ADMIN_TOKEN, or the one-off token `npm start` prints) is the only
// accepted credential, with admin scope for tenant `default`.
import { assertBearerToken, sameToken } from '@clawdie/kit/auth';
import type { TokenVerifier } from './api-tokens.js';
import { AuthError } from './auth-errors.js';
import type { Principal } from './scopes.js';

const adminPrincipal: Principal = {
  tenant: 'default',
  subject: 'admin-token',
  scopes: ['admin'],
  via: 'token',
};

/** Accepts exactly the admin token (constant-time compare). */
export function createAdminTokenVerifier(adminToken: string): TokenVerifier {
  if (adminToken.length < 16) throw new Error('the admin token must be at least 16 characters');
  assertBearerToken(adminToken, 'the admin token');
  const matches = sameToken(adminToken);
  return {
    tokenHint: '<admin token printed at start>',
    async verify(token) {
      if (!matches(token)) throw new AuthError('TOKEN_INVALID', 'invalid bearer token');
      return adminPrincipal;
    },
  };
}

// Reads and verifies the request's bearer token: Hono's `bearerAuth` parses `Authorization` (the
// controlplane's one parser of it), the TokenVerifier checks the token. Callers decide what a
// refusal answers: `requireAuth` a 401/429 with the failure limiter, `/health` the public view.
import type { Context } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import { HTTPException } from 'hono/http-exception';
import type { TokenVerifier } from './api-tokens.js';
import { AuthError } from './auth-errors.js';
import type { Principal } from './scopes.js';

/** The verified caller, or why the request has none. */
export type BearerOutcome = { principal: Principal } | { refusal: AuthError };

/** Returns the request's bearer outcome; never throws for a refused token. */
export function createBearerCheck(verifier: TokenVerifier): (c: Context) => Promise<BearerOutcome> {
  const missing = () =>
    new AuthError(
      'TOKEN_MISSING',
      `missing bearer token: send Authorization: Bearer ${verifier.tokenHint}`,
    );
  const outcomes = new WeakMap<Context, BearerOutcome>();
  const check = bearerAuth({
    async verifyToken(token, c) {
      try {
        outcomes.set(c, { principal: await verifier.verify(token) });
        return true;
      } catch (error) {
        if (!(error instanceof AuthError)) throw error;
        outcomes.set(c, { refusal: error });
        return false;
      }
    },
    // A header that is not `Bearer <b64token>` (another scheme, no token) counts as no token.
    noAuthenticationHeader: { message: () => '' },
    invalidAuthenticationHeader: { message: () => '' },
    invalidToken: { message: () => '' },
  });
  return async (c) => {
    try {
      await check(c, async () => undefined);
    } catch (error) {
      if (!(error instanceof HTTPException)) throw error;
    }
    return outcomes.get(c) ?? { refusal: missing() };
  };
}

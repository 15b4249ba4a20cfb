// The controlplane reads `Authorization` in one place (createBearerCheck, over Hono's bearerAuth):
// every header shape the API sees maps to a principal or to the refusal code requireAuth answers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Hono } from 'hono';
import { createAdminTokenVerifier } from '../../../../controlplane/src/governance/auth/admin-token-verifier.js';
import type { TokenVerifier } from '../../../../controlplane/src/governance/auth/api-tokens.js';
import { createBearerCheck } from '../../../../controlplane/src/governance/auth/bearer-check.js';
import { createAuthFixture } from './auth-fixture.js';

/** A route answering the outcome: the principal's tenant, or the refusal's code and message. */
function outcomeOf(verifier: TokenVerifier) {
  const check = createBearerCheck(verifier);
  const app = new Hono().get('/', async (c) => {
    const outcome = await check(c);
    return c.json(
      'principal' in outcome
        ? { tenant: outcome.principal.tenant }
        : { code: outcome.refusal.code, message: outcome.refusal.message },
    );
  });
  return async (authorization?: string) =>
    (await app.request('/', authorization ? { headers: { authorization } } : {})).json();
}

describe('createBearerCheck', () => {
  it('reads the JWT of any spelling of the Bearer scheme', async () => {
    const { token, verifier } = await createAuthFixture();
    const outcome = outcomeOf(verifier);
    const jwt = await token(['tasks:read']);
    for (const header of [`Bearer ${jwt}`, `bearer ${jwt}`, `BEARER   ${jwt}`]) {
      assert.deepEqual(await outcome(header), { tenant: 'acme' }, header);
    }
  });

  it('answers TOKEN_MISSING without a usable header and TOKEN_INVALID for a bad token', async () => {
    const { verifier } = await createAuthFixture();
    const outcome = outcomeOf(verifier);
    const missing = {
      code: 'TOKEN_MISSING',
      message: 'missing bearer token: send Authorization: Bearer <token>',
    };
    for (const header of [
      undefined,
      'Basic YWRtaW46YWRtaW4=',
      'Bearer',
      'Bearer a b',
      'Bearer{x}',
    ]) {
      assert.deepEqual(await outcome(header), missing, String(header));
    }
    assert.equal(((await outcome('Bearer not.a.jwt')) as { code: string }).code, 'TOKEN_INVALID');
  });

  it('checks the admin token in constant time and names it when missing', async () => {
    const adminToken = 'admin-token-0123456789';
    const outcome = outcomeOf(createAdminTokenVerifier(adminToken));
    assert.deepEqual(await outcome(`Bearer ${adminToken}`), { tenant: 'default' });
    assert.deepEqual(await outcome(`Bearer ${adminToken}x`), {
      code: 'TOKEN_INVALID',
      message: 'invalid bearer token',
    });
    assert.match(
      ((await outcome()) as { message: string }).message,
      /<admin token printed at start>/,
    );
  });

  it('refuses an admin token that no Authorization header can carry', () => {
    assert.throws(() => createAdminTokenVerifier('admin token with spaces!'), /bearer token must/);
  });
});

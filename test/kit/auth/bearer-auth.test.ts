// The static-token guard of the jail-service and hostd: Hono's bearerAuth parses the header, the
// token is compared in constant time, and the service's own refusal is returned.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { requireBearer, sameToken } from '../../../kit/src/auth/bearer-auth.js';

const token = 'guard-test-token_0123456789.~+/';

function guarded() {
  const app = new Hono();
  app.use('*', requireBearer({ token, refuse: (c, reason) => c.json({ reason }, 401) }));
  app.get('/', (c) => c.text('in'));
  app.onError((error) => {
    if (error instanceof HTTPException) return error.getResponse();
    throw error;
  });
  return async (authorization?: string) => {
    const response = await app.request('/', authorization ? { headers: { authorization } } : {});
    return response.status === 200 ? 'in' : ((await response.json()) as { reason: string }).reason;
  };
}

describe('requireBearer', () => {
  it('lets the token in under any spelling of the scheme', async () => {
    const request = guarded();
    for (const header of [`Bearer ${token}`, `bearer ${token}`, `Bearer  ${token}`]) {
      assert.equal(await request(header), 'in', header);
    }
  });

  it('tells a missing header, a malformed one and a wrong token apart', async () => {
    const request = guarded();
    assert.equal(await request(), 'missing');
    for (const header of ['Basic YTpi', 'Bearer', `Bearer ${token} x`, `Token ${token}`]) {
      assert.equal(await request(header), 'malformed', header);
    }
    for (const header of [`Bearer ${token}x`, `Bearer ${token.slice(1)}`, 'Bearer nope']) {
      assert.equal(await request(header), 'invalid', header);
    }
  });

  it('refuses at start-up a token no Authorization header can carry', () => {
    const refuse = () => new Response(null, { status: 401 });
    assert.throws(() => requireBearer({ token: '', refuse }), /must not be empty/);
    assert.throws(() => requireBearer({ token: 'pass word!', refuse }), /bearer token must/);
  });

  it('compares tokens of any length', () => {
    const matches = sameToken(token);
    assert.equal(matches(token), true);
    for (const other of ['', 'x', `${token}x`, token.toUpperCase()]) {
      assert.equal(matches(other), false, other);
    }
  });
});

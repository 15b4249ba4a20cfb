import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SignJWT } from 'jose';
import {
  createTokenIssuer,
  createTokenVerifier,
} from '../../../../controlplane/src/governance/auth/api-tokens.js';
import { AuthError } from '../../../../controlplane/src/governance/auth/auth-errors.js';
import {
  loadSigningKeys,
  rotateSigningKeys,
} from '../../../../controlplane/src/governance/auth/signing-keys.js';
import { audience, createAuthFixture, issuer } from './auth-fixture.js';

const rejectsWith = async (promise: Promise<unknown>, code: string) => {
  await assert.rejects(
    promise,
    (error: unknown) => error instanceof AuthError && error.code === code,
  );
};

describe('API access tokens', () => {
  it('round-trips tenant, subject and scopes', async () => {
    const { token, verifier } = await createAuthFixture();
    const principal = await verifier.verify(await token(['tasks:run', 'tasks:read']));
    assert.deepEqual(principal, {
      tenant: 'acme',
      subject: 'tester',
      scopes: ['tasks:run', 'tasks:read'],
      via: 'token',
    });
  });

  it('rejects garbage, a token signed by another key, and alg=none with TOKEN_INVALID', async () => {
    const { verifier } = await createAuthFixture();
    const other = await createAuthFixture();
    await rejectsWith(verifier.verify('not.a.jwt'), 'TOKEN_INVALID');
    await rejectsWith(verifier.verify(await other.token(['admin'])), 'TOKEN_INVALID');
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString(
      'base64url',
    );
    const body = Buffer.from(
      JSON.stringify({
        sub: 'x',
        tenant: 'acme',
        scope: 'admin',
        aud: audience,
        iss: issuer,
        exp: 9e9,
      }),
    ).toString('base64url');
    await rejectsWith(verifier.verify(`${header}.${body}.`), 'TOKEN_INVALID');
  });

  it('rejects an expired token with TOKEN_EXPIRED', async () => {
    const { token, verifier, clock } = await createAuthFixture();
    const jwt = await token(['tasks:read'], 'acme', 60);
    clock.now += 61_000;
    await rejectsWith(verifier.verify(jwt), 'TOKEN_EXPIRED');
  });

  it('rejects a token for another audience with TOKEN_WRONG_AUDIENCE', async () => {
    const { keys, verifier, settings } = await createAuthFixture();
    const foreign = createTokenIssuer(keys, { ...settings, audience: 'some-other-api' });
    const jwt = await foreign({ tenant: 'acme', subject: 's', scopes: ['admin'], ttlSeconds: 60 });
    await rejectsWith(verifier.verify(jwt), 'TOKEN_WRONG_AUDIENCE');
  });

  it('rejects a validly signed token without a tenant or of another type', async () => {
    const { keys, verifier } = await createAuthFixture();
    const base = (typ: string, claims: Record<string, unknown>) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid: keys.current.kid, typ })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject('s')
        .setExpirationTime('5m')
        .sign(keys.current.key);
    await rejectsWith(verifier.verify(await base('at+jwt', { scope: 'admin' })), 'TOKEN_INVALID');
    await rejectsWith(
      verifier.verify(await base('JWT', { tenant: 'a', scope: 'admin' })),
      'TOKEN_INVALID',
    );
  });

  it('keeps accepting tokens of older kids after rotation until they are dropped', async () => {
    const { file, token, settings } = await createAuthFixture();
    const old = await token(['tasks:read']);
    await rotateSigningKeys(file, { keep: 2, now: Date.now() });
    const rotated = await loadSigningKeys(file);
    const verifier = createTokenVerifier(rotated.publicJwks, settings);
    assert.equal((await verifier.verify(old)).tenant, 'acme');
    const fresh = await createTokenIssuer(
      rotated,
      settings,
    )({ tenant: 'b', subject: 's', scopes: ['admin'], ttlSeconds: 60 });
    assert.equal((await verifier.verify(fresh)).tenant, 'b');
    await rotateSigningKeys(file, { keep: 2, now: Date.now() });
    const dropped = createTokenVerifier((await loadSigningKeys(file)).publicJwks, settings);
    await rejectsWith(dropped.verify(old), 'TOKEN_INVALID');
    assert.equal((await dropped.verify(fresh)).tenant, 'b');
  });
});

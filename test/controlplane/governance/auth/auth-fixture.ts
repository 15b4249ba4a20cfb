import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTokenIssuer,
  createTokenVerifier,
} from '../../../../controlplane/src/governance/auth/api-tokens.js';
import type { Scope } from '../../../../controlplane/src/governance/auth/scopes.js';
import {
  loadSigningKeys,
  rotateSigningKeys,
} from '../../../../controlplane/src/governance/auth/signing-keys.js';

export const issuer = 'clawdie';
export const audience = 'clawdie-api';

/** A fresh JWKS file with one key, an issuer and a verifier over it, on a movable clock. */
export async function createAuthFixture() {
  const file = join(mkdtempSync(join(tmpdir(), 'clawdie-auth-')), 'jwks.json');
  await rotateSigningKeys(file, { keep: 3, now: Date.now() });
  const keys = await loadSigningKeys(file);
  const clock = { now: Date.now() };
  const settings = { issuer, audience, now: () => clock.now };
  const issue = createTokenIssuer(keys, settings);
  const verifier = createTokenVerifier(keys.publicJwks, settings);
  const token = (scopes: Scope[], tenant = 'acme', ttlSeconds = 600) =>
    issue({ tenant, subject: 'tester', scopes, ttlSeconds });
  return { file, keys, clock, settings, issue, verifier, token };
}

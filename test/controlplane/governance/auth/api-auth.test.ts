import assert from 'node:assert/strict';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../../../../controlplane/src/config.js';
import {
  checkListenAddress,
  isLoopbackHost,
  loadApiAuth,
} from '../../../../controlplane/src/governance/auth/api-auth.js';
import {
  loadSigningKeys,
  rotateSigningKeys,
} from '../../../../controlplane/src/governance/auth/signing-keys.js';

const dir = () => mkdtempSync(join(tmpdir(), 'clawdie-auth-'));

describe('API auth configuration', () => {
  it('reads CLAWDIE_AUTH_* with a JWKS file under the data dir by default', () => {
    const config = loadConfig({ CLAWDIE_DATA_DIR: '/srv/clawdie' });
    assert.deepEqual(config.auth, {
      jwksFile: '/srv/clawdie/auth/jwks.json',
      required: true,
      issuer: 'clawdie',
      audience: 'clawdie-api',
    });
    const custom = loadConfig({
      CLAWDIE_AUTH_JWKS_FILE: '/etc/k.json',
      CLAWDIE_AUTH_REQUIRED: 'false',
      CLAWDIE_AUTH_AUDIENCE: 'x',
    });
    assert.equal(custom.auth.jwksFile, '/etc/k.json');
    assert.equal(custom.auth.required, false);
    assert.throws(() => loadConfig({ CLAWDIE_AUTH_REQUIRED: 'maybe' }), /CLAWDIE_AUTH_REQUIRED/);
  });

  it('takes an admin token only if an Authorization: Bearer header can carry it', () => {
    const token = 'Abc-123._~+/xyz0==';
    assert.equal(loadConfig({ CLAWDIE_ADMIN_TOKEN: token }).adminToken, token);
    assert.throws(
      () => loadConfig({ CLAWDIE_ADMIN_TOKEN: 'correct horse battery staple' }),
      /CLAWDIE_ADMIN_TOKEN: may contain only letters, digits/,
    );
  });

  it('is off without a key file, and a startup error when required', async () => {
    const file = join(dir(), 'missing.json');
    const settings = {
      jwksFile: file,
      required: false,
      issuer: 'clawdie',
      audience: 'clawdie-api',
    };
    assert.equal(await loadApiAuth(settings), null);
    await assert.rejects(
      loadApiAuth({ ...settings, required: true }),
      /CLAWDIE_AUTH_REQUIRED is set but .*missing\.json does not exist/,
    );
  });

  it('names the file and the field of a broken key file', async () => {
    const file = join(dir(), 'jwks.json');
    writeFileSync(
      file,
      JSON.stringify({ keys: [{ kty: 'EC', crv: 'P-256', x: 'a', y: 'b', d: 'c', alg: 'ES256' }] }),
    );
    await assert.rejects(loadSigningKeys(file), (error: Error) =>
      error.message.startsWith(`${file}: keys.0.kid:`),
    );
    writeFileSync(file, '{');
    await assert.rejects(loadSigningKeys(file), /cannot be read as JSON/);
    await assert.rejects(rotateSigningKeys(file, { keep: 2, now: 0 }), /refusing to overwrite/);
  });

  it('writes the key file with mode 0600', async () => {
    const file = join(dir(), 'sub', 'jwks.json');
    const { kid, kept } = await rotateSigningKeys(file, { keep: 2, now: Date.UTC(2030, 0, 2) });
    assert.match(kid, /^2030-01-02-[0-9a-f]{12}$/);
    assert.deepEqual(kept, [kid]);
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  it('refuses a non-loopback host without auth and warns on loopback', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])
      assert.equal(isLoopbackHost(host), true, host);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', 'example.org'])
      assert.equal(isLoopbackHost(host), false, host);
    assert.throws(
      () => checkListenAddress('0.0.0.0', false),
      /CLAWDIE_HOST=0.0.0.0 is not a loopback address and API auth is not configured/,
    );
    assert.match(checkListenAddress('127.0.0.1', false) ?? '', /WARNING: API auth is off/);
    assert.equal(checkListenAddress('0.0.0.0', true), null);
  });
});

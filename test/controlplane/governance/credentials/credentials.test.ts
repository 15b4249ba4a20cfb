import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createGrantAuthority } from '../../../../controlplane/src/governance/credentials/grant-authority.js';
import {
  createSecretVault,
  loadVaultKey,
} from '../../../../controlplane/src/governance/credentials/secret-vault.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { createSecretRepository } from '../../../../controlplane/src/platform/store/secret-repository.js';
import { CLAWDIE_ARGV } from '../../../support/current-build.js';

const secret = 'hunter2-Correct-Horse';

function openVault() {
  const dir = mkdtempSync(join(tmpdir(), 'clawdie-vault-'));
  const database = openDatabase(join(dir, 'clawdie.db'));
  const key = loadVaultKey(join(dir, 'secrets.key'), { create: true });
  return { dir, database, key, vault: createSecretVault(createSecretRepository(database.db), key) };
}

describe('secrets vault (AES-256-GCM)', () => {
  it('round-trips values per tenant and keeps only ciphertext in the database', async () => {
    const { dir, database, vault } = openVault();
    await vault.put('acme', 'bank_password', secret);
    await vault.put('globex', 'bank_password', 'other');
    assert.equal(await vault.reveal('acme', 'bank_password'), secret);
    assert.equal(await vault.reveal('globex', 'bank_password'), 'other');
    assert.equal(await vault.reveal('acme', 'missing'), null);
    assert.deepEqual(await vault.names('acme'), ['bank_password']);
    database.db.$client.pragma('wal_checkpoint(TRUNCATE)');
    database.close();
    assert.ok(!readFileSync(join(dir, 'clawdie.db')).includes(secret));
    assert.equal(statSync(join(dir, 'secrets.key')).mode & 0o777, 0o600);
  });

  it('refuses altered ciphertext, a row copied to another name, and a wrong key', async () => {
    const { database, vault, key } = openVault();
    await vault.put('acme', 'a', secret);
    const sqlite = database.db.$client;
    sqlite.exec(
      "INSERT INTO secrets SELECT 'b', tenant, ciphertext, iv, tag, updated_at FROM secrets WHERE name = 'a'",
    );
    await assert.rejects(vault.reveal('acme', 'b'), /secret b cannot be decrypted/);
    const wrongKey = Buffer.from(key);
    wrongKey[0] = (wrongKey[0] ?? 0) ^ 1;
    await assert.rejects(
      createSecretVault(createSecretRepository(database.db), wrongKey).reveal('acme', 'a'),
      /cannot be decrypted/,
    );
    sqlite.exec("UPDATE secrets SET ciphertext = 'AAAA' || substr(ciphertext, 5) WHERE name = 'a'");
    await assert.rejects(vault.reveal('acme', 'a'), /cannot be decrypted/);
    database.close();
  });

  it('stores a secret from stdin with `clawdie secret set`', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-secret-cli-'));
    const child = execFile(
      process.execPath,
      [...CLAWDIE_ARGV, 'secret', 'set', 'pin', '--tenant', 'acme'],
      {
        env: { ...process.env, CLAWDIE_DATA_DIR: dataDir },
      },
    );
    child.stdin?.end('1234\n');
    const [code] = await new Promise<[number | null]>((resolve) =>
      child.on('exit', (c) => resolve([c])),
    );
    assert.equal(code, 0);
    const database = openDatabase(join(dataDir, 'clawdie.db'));
    const vault = createSecretVault(
      createSecretRepository(database.db),
      loadVaultKey(join(dataDir, 'secrets.key'), { create: false }),
    );
    assert.equal(await vault.reveal('acme', 'pin'), '1234');
    database.close();
  });
});

describe('grant tokens', () => {
  it('bind one task, one secret and one host, and expire', async () => {
    let now = Date.now();
    const grants = createGrantAuthority(() => now);
    const token = await grants.mint({
      taskId: 't1',
      secret: 'pw',
      host: 'bank.example',
      ttlSeconds: 60,
    });
    assert.match(
      (await grants.verify(token, { taskId: 't1', secret: 'pw', host: 'bank.example' })).jti,
      /^[0-9a-f-]{36}$/,
    );
    for (const wrong of [
      { taskId: 't2', secret: 'pw', host: 'bank.example' },
      { taskId: 't1', secret: 'other', host: 'bank.example' },
      { taskId: 't1', secret: 'pw', host: 'evil.example' },
    ]) {
      await assert.rejects(grants.verify(token, wrong), { code: 'GRANT_INVALID' });
    }
    await assert.rejects(
      createGrantAuthority().verify(token, { taskId: 't1', secret: 'pw', host: 'bank.example' }),
      { code: 'GRANT_INVALID' },
    );
    now += 61_000;
    await assert.rejects(
      grants.verify(token, { taskId: 't1', secret: 'pw', host: 'bank.example' }),
      /exp/,
    );
  });
});

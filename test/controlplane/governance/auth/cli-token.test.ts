import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { loadConfig } from '../../../../controlplane/src/config.js';
import { loadApiAuth } from '../../../../controlplane/src/governance/auth/api-auth.js';
import { CLAWDIE_ARGV } from '../../../support/current-build.js';

const run = promisify(execFile);
const cli = (args: string[], env: Record<string, string>) =>
  run(process.execPath, [...CLAWDIE_ARGV, ...args], {
    env: { ...process.env, ...env },
  });

describe('clawdie keys rotate / token create', () => {
  it('creates a key file and mints a token the server verifies', async () => {
    const env = { CLAWDIE_DATA_DIR: mkdtempSync(join(tmpdir(), 'clawdie-cli-')) };
    const rotated = await cli(['keys', 'rotate'], env);
    assert.match(rotated.stderr, /new signing key \S+ in .*auth\/jwks\.json/);
    const created = await cli(
      [
        'token',
        'create',
        '--tenant',
        'acme',
        '--scope',
        'tasks:run',
        '--scope',
        'tasks:read',
        '--ttl',
        '120',
      ],
      env,
    );
    const token = created.stdout.trim();
    assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    const auth = await loadApiAuth(loadConfig(env).auth);
    const principal = await auth?.verifier.verify(token);
    assert.deepEqual(principal?.scopes, ['tasks:run', 'tasks:read']);
    assert.equal(principal?.tenant, 'acme');
    await assert.rejects(
      cli(['token', 'create', '--tenant', 'acme', '--scope', 'root'], env),
      /--scope: unknown root/,
    );
  });
});

import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../../../../controlplane/src/config.js';

describe('CLAWDIE_DATABASE_URL', () => {
  it('is unset by default (SQLite in the data dir)', () => {
    assert.equal(loadConfig({}).databaseUrl, null);
  });

  it('takes a postgres:// or postgresql:// URL, also from CLAWDIE_DATABASE_URL_FILE', () => {
    const url = 'postgres://clawdie:pw@db.internal:5432/clawdie';
    assert.equal(loadConfig({ CLAWDIE_DATABASE_URL: url }).databaseUrl, url);
    const other = 'postgresql://clawdie@localhost/clawdie?host=/run/postgresql';
    assert.equal(loadConfig({ CLAWDIE_DATABASE_URL: other }).databaseUrl, other);
    const file = join(mkdtempSync(join(tmpdir(), 'clawdie-dburl-')), 'url');
    writeFileSync(file, `${url}\n`);
    assert.equal(loadConfig({ CLAWDIE_DATABASE_URL_FILE: file }).databaseUrl, url);
  });

  it('refuses any other scheme, naming the variable but not the value', () => {
    for (const value of [
      'mysql://u:secret@h/db',
      'sqlite:data/clawdie.db',
      '/var/lib/db',
      'postgres://',
    ]) {
      assert.throws(
        () => loadConfig({ CLAWDIE_DATABASE_URL: value }),
        (error: Error) =>
          /CLAWDIE_DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/.test(
            error.message,
          ) && !error.message.includes('secret'),
      );
    }
  });
});

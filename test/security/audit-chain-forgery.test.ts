// Issue 12, found item 4: an attacker with write access to the SQLite file (not to the key file
// beside it) rewrites the audit chain, then runs `clawdie audit verify` as the user would.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { rowHash } from '../../controlplane/src/governance/audit/hash-chain.js';
import { CLAWDIE_ARGV } from '../support/current-build.js';

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], env: Record<string, string>, stdin = ''): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLAWDIE_ARGV, ...args], {
      env: { ...process.env, CLAWDIE_LOG_LEVEL: 'silent', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

const verifyCli = (dataDir: string) => runCli(['audit', 'verify'], { CLAWDIE_DATA_DIR: dataDir });

interface Raw {
  seq: number;
  at: number;
  type: string;
  actor: string;
  task_id: string | null;
  data: string;
  prev_hash: string;
  hash: string;
}

/** Opens the database file as an attacker would: raw SQLite, triggers dropped. */
function attack(dataDir: string, tamper: (sqlite: Database.Database) => void): void {
  const sqlite = new Database(join(dataDir, 'clawdie.db'));
  sqlite.exec('DROP TRIGGER audit_events_no_update; DROP TRIGGER audit_events_no_delete;');
  tamper(sqlite);
  sqlite.close();
}

/** Recomputes every row's `prev_hash`/`hash` from `fromSeq` on: all an attacker without a key can do. */
function rehash(sqlite: Database.Database, fromSeq: number): void {
  const rows = sqlite.prepare('SELECT * FROM audit_events ORDER BY seq').all() as Raw[];
  const update = sqlite.prepare('UPDATE audit_events SET prev_hash = ?, hash = ? WHERE seq = ?');
  let previous = '0'.repeat(64);
  for (const row of rows) {
    if (row.seq >= fromSeq) {
      const hash = rowHash({ ...row, taskId: row.task_id, prevHash: previous });
      update.run(previous, hash, row.seq);
      previous = hash;
    } else previous = row.hash;
  }
}

function expectTampered(result: CliResult, firstBad: number): void {
  assert.equal(result.code, 1, `verify must fail: ${result.stderr}`);
  assert.match(result.stderr, new RegExp(`audit log TAMPERED: first bad row ${firstBad} `));
}

describe('security: the audit chain cannot be rewritten unseen', () => {
  const root = mkdtempSync(join(tmpdir(), 'clawdie-audit-attack-'));
  const seeded = join(root, 'seeded');
  let rows = 0;
  let copies = 0;
  const copy = () => {
    const dir = join(root, `copy-${++copies}`);
    cpSync(seeded, dir, { recursive: true });
    return dir;
  };

  before(async () => {
    // Rows written the way a user writes them: `clawdie secret set` appends `secret-stored`.
    for (const name of ['ONE', 'TWO', 'THREE', 'FOUR']) {
      const result = await runCli(
        ['secret', 'set', name, '--tenant', 'acme'],
        { CLAWDIE_DATA_DIR: seeded },
        'value\n',
      );
      assert.equal(result.code, 0, result.stderr);
    }
    const sqlite = new Database(join(seeded, 'clawdie.db'), { readonly: true });
    rows = (sqlite.prepare('SELECT count(*) AS n FROM audit_events').get() as { n: number }).n;
    sqlite.close();
    assert.ok(rows >= 4);
    const intact = await verifyCli(copy());
    assert.equal(intact.code, 0, intact.stderr);
    assert.match(intact.stderr, new RegExp(`audit log intact: ${rows} rows`));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('names a row rewritten with the whole chain after it re-hashed', async () => {
    const dir = copy();
    attack(dir, (sqlite) => {
      sqlite.prepare("UPDATE audit_events SET actor = 'mallory' WHERE seq = ?").run(rows - 2);
      rehash(sqlite, rows - 2);
    });
    expectTampered(await verifyCli(dir), rows - 2);
  });

  it('names the first renumbered row after a deletion, with the rest re-hashed', async () => {
    const dir = copy();
    attack(dir, (sqlite) => {
      sqlite.prepare('DELETE FROM audit_events WHERE seq = ?').run(rows - 2);
      sqlite.prepare('UPDATE audit_events SET seq = seq - 1 WHERE seq > ?').run(rows - 2);
      rehash(sqlite, rows - 2);
    });
    expectTampered(await verifyCli(dir), rows - 2);
  });

  it('names a forged row appended at the end', async () => {
    const dir = copy();
    attack(dir, (sqlite) => {
      const tail = sqlite.prepare('SELECT * FROM audit_events ORDER BY seq DESC').get() as Raw;
      const forged = {
        seq: tail.seq + 1,
        at: tail.at + 1,
        type: 'token-created',
        actor: 'cli',
        taskId: null,
        data: '{"tenant":"acme"}',
        prevHash: tail.hash,
      };
      sqlite
        .prepare(
          'INSERT INTO audit_events (seq, at, type, actor, task_id, data, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(...Object.values(forged), rowHash(forged));
    });
    expectTampered(await verifyCli(dir), rows + 1);
  });

  it('names swapped rows, re-hashed', async () => {
    const dir = copy();
    attack(dir, (sqlite) => {
      const swap = sqlite.prepare('UPDATE audit_events SET seq = ? WHERE seq = ?');
      swap.run(-1, rows - 1);
      swap.run(rows - 1, rows - 2);
      swap.run(rows - 2, -1);
      rehash(sqlite, rows - 2);
    });
    expectTampered(await verifyCli(dir), rows - 2);
  });

  it('reports rows cut from the end', async () => {
    const dir = copy();
    attack(dir, (sqlite) => {
      sqlite.prepare('DELETE FROM audit_events WHERE seq >= ?').run(rows - 1);
    });
    const result = await verifyCli(dir);
    expectTampered(result, rows - 1);
    assert.match(result.stderr, /truncated/);
  });

  it('refuses a data directory without a database, creating nothing', async () => {
    const empty = join(root, 'wrong-dir');
    const result = await verifyCli(empty);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /no database at .*clawdie\.db/);
    assert.equal(existsSync(empty), false, 'verify must not create the data directory');
  });

  it('refuses a database whose key is missing, creating nothing', async () => {
    const dir = copy();
    rmSync(join(dir, 'keys'), { recursive: true, force: true });
    const before = readdirSync(dir).sort();
    const result = await verifyCli(dir);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /AUDIT_KEY_MISSING: the audit key .*audit\.key does not exist/);
    assert.deepEqual(readdirSync(dir).sort(), before);
  });
});

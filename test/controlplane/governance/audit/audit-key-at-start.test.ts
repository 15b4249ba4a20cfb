// A keyed chain whose key is not at hand at start (an unmounted volume, a moved file, a changed
// CLAWDIE_AUDIT_KEY_FILE) refuses the start instead of creating a new key: with a new key, the
// rows already keyed could never be verified again (docs/operations.md, "The audit key at start").
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadAuditKey } from '../../../../controlplane/src/governance/audit/audit-key.js';
import { createAuditLog } from '../../../../controlplane/src/governance/audit/audit-log.js';
import { openAuditTrail } from '../../../../controlplane/src/governance/audit/open-audit-trail.js';
import { createAuditRepository } from '../../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { createTestControlplane, testConfig } from '../../../support/controlplane.js';

const clock = { now: () => 1_700_000_000_000 };

/** Every file under `dir` with its bytes (absent directory: empty), to show nothing changed. */
function snapshot(dir: string): Record<string, string> {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return {};
  }
  return Object.fromEntries(
    names.map((name) => [name, readFileSync(join(dir, name)).toString('base64')]),
  );
}

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'audit-key-start-'));
  const database = openDatabase(join(dir, 'clawdie.db'));
  const store = createAuditRepository(database.db);
  const keyFile = join(dir, 'keys', 'audit.key');
  const open = (mode: 'append' | 'verify' = 'append', file = keyFile) =>
    openAuditTrail(store, { keyFile: file, clock, mode });
  const rowCount = () =>
    database.db.$client.prepare('SELECT count(*) FROM audit_events').pluck().get() as number;
  return { dir, database, store, keyFile, open, rowCount };
}

describe('the audit key at an append-mode start (SQLite)', () => {
  it('refuses a missing key while the chain holds keyed rows, creating and writing nothing', async (t) => {
    const { dir, database, keyFile, open, rowCount } = setup();
    t.after(() => {
      database.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const first = await open();
    for (let i = 0; i < 4; i++) await first.append({ type: 'action-executed', actor: 'system' });
    first.close();
    const moved = join(dir, 'moved.key');
    renameSync(keyFile, moved);
    const keys = snapshot(join(dir, 'keys'));

    await assert.rejects(open(), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'AUDIT_KEY_MISSING');
      assert.match(error.message, /holds 5 keyed rows \(rows 1–5/);
      assert.ok(error.message.includes(keyFile), 'names the key file');
      assert.match(error.message, /restore the key file .*CLAWDIE_AUDIT_KEY_FILE/);
      return true;
    });
    assert.equal(rowCount(), 5, 'no row appended');
    assert.deepEqual(snapshot(join(dir, 'keys')), keys, 'no key created, head untouched');

    // The key put back: the start goes on and the whole chain still verifies.
    renameSync(moved, keyFile);
    const again = await open();
    await again.append({ type: 'task-ended', actor: 'system' });
    again.close();
    const verified = await (await open('verify')).verify();
    assert.deepEqual(verified.ok && [verified.rows, verified.unkeyedRows], [6, 0]);
  });

  it("refuses another chain's key: one that does not verify the last keyed row, or keys rows to come", async (t) => {
    const { dir, database, open, rowCount } = setup();
    t.after(() => {
      database.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const first = await open();
    await first.append({ type: 'action-executed', actor: 'system' });
    first.close();
    const stranger = join(dir, 'other', 'audit.key');
    loadAuditKey(stranger, { create: { nextSeq: () => 1, now: 0 } });
    await assert.rejects(open('append', stranger), {
      code: 'AUDIT_KEY_MISMATCH',
      message: /does not verify row 2 of the audit log/,
    });
    const later = join(dir, 'later', 'audit.key');
    loadAuditKey(later, { create: { nextSeq: () => 9, now: 0 } });
    await assert.rejects(open('append', later), {
      code: 'AUDIT_KEY_MISMATCH',
      message: /keys rows from 9 on: it is another chain's key/,
    });
    assert.equal(rowCount(), 2);
    assert.equal((await (await open('verify')).verify()).ok, true);
  });

  it('still creates a key for a chain without keyed rows (an upgrade from an unkeyed chain)', async (t) => {
    const { dir, database, store, keyFile, open } = setup();
    t.after(() => {
      database.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const legacy = createAuditLog(store, clock);
    for (let i = 0; i < 3; i++) await legacy.append({ type: 'action-executed', actor: 'system' });
    const trail = await open();
    trail.close();
    assert.equal(loadAuditKey(keyFile).keyedFrom, 4);
    const verified = await (await open('verify')).verify();
    assert.deepEqual(verified.ok && [verified.rows, verified.unkeyedRows], [4, 3]);
  });
});

describe('the audit key at a controlplane start', () => {
  it('refuses to start when the key moved, leaving the database and the key dir as they were', async (t) => {
    const config = testConfig();
    const { dataDir } = config;
    t.after(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await createTestControlplane({ config });
    await first.audit.append({ type: 'token-created', actor: 'system' });
    await first.close();

    const keysDir = join(dataDir, 'keys');
    const elsewhere = join(dataDir, 'unmounted');
    mkdirSync(elsewhere, { mode: 0o700 });
    for (const name of ['audit.key', 'audit.key.head'])
      renameSync(join(keysDir, name), join(elsewhere, name));
    const database = openDatabase(config.databasePath);
    const rows = () =>
      database.db.$client.prepare('SELECT seq, hash FROM audit_events ORDER BY seq').all();
    const before = rows();
    const keysBefore = snapshot(keysDir);

    await assert.rejects(createTestControlplane({ config }), {
      code: 'AUDIT_KEY_MISSING',
      message: new RegExp(`holds ${before.length} keyed rows.*${config.auditKeyFile}`),
    });
    assert.deepEqual(rows(), before, 'the refused start appended nothing');
    assert.deepEqual(snapshot(keysDir), keysBefore, 'and created no key');

    // CLAWDIE_AUDIT_KEY_FILE pointed at where the key (and its head record) went: it starts.
    const moved = testConfig({
      CLAWDIE_DATA_DIR: dataDir,
      CLAWDIE_AUDIT_KEY_FILE: join(elsewhere, 'audit.key'),
    });
    const second = await createTestControlplane({ config: moved });
    const verified = await second.audit.verify();
    await second.close();
    database.close();
    assert.equal(verified.ok, true);
    assert.deepEqual(snapshot(keysDir), keysBefore);
  });
});

import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createAuditLog } from '../../../../controlplane/src/governance/audit/audit-log.js';
import { rowHash } from '../../../../controlplane/src/governance/audit/hash-chain.js';
import { createAuditRepository } from '../../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { createManualClock } from '../../../support/manual-clock.js';
import { auditLogContract } from './audit-log.contract.js';

function openLog(path = ':memory:') {
  const database = openDatabase(path);
  const log = createAuditLog(createAuditRepository(database.db), createManualClock());
  return { log, database, close: database.close };
}

auditLogContract('SQLite :memory:', () => openLog());
auditLogContract('SQLite file', () => openLog(join(mkdtempSync(join(tmpdir(), 'audit-')), 'a.db')));

/** A log of 10 rows whose triggers are dropped, as an attacker with file access would. */
async function tamperable() {
  const opened = openLog();
  for (let i = 1; i <= 10; i++)
    await opened.log.append({ type: 'action-executed', actor: 'system', data: { i } });
  const sqlite = opened.database.db.$client;
  sqlite.exec('DROP TRIGGER audit_events_no_update; DROP TRIGGER audit_events_no_delete;');
  return { ...opened, sqlite };
}

describe('audit log tamper detection', () => {
  it('refuses UPDATE and DELETE in the database itself', async () => {
    const { database, log, close } = openLog();
    await log.append({ type: 'task-started', actor: 'system' });
    const sqlite = database.db.$client;
    assert.throws(() => sqlite.exec("UPDATE audit_events SET actor = 'x'"), /append-only/);
    assert.throws(() => sqlite.exec('DELETE FROM audit_events'), /append-only/);
    close();
  });

  it('names an edited row', async () => {
    const { sqlite, log, close } = await tamperable();
    sqlite.exec(`UPDATE audit_events SET data = '{"i":99}' WHERE seq = 4`);
    const result = await log.verify();
    assert.equal(result.ok, false);
    assert.deepEqual(!result.ok && result.firstBad.seq, 4);
    assert.equal(!result.ok && result.firstBad.problem, 'edited');
    close();
  });

  it('names a deleted row', async () => {
    const { sqlite, log, close } = await tamperable();
    sqlite.exec('DELETE FROM audit_events WHERE seq = 6');
    const result = await log.verify();
    assert.equal(!result.ok && result.firstBad.seq, 6);
    assert.equal(!result.ok && result.firstBad.problem, 'deleted');
    close();
  });

  it('names reordered rows', async () => {
    const { sqlite, log, close } = await tamperable();
    sqlite.exec(
      'UPDATE audit_events SET seq = -1 WHERE seq = 3; UPDATE audit_events SET seq = 3 WHERE seq = 4; UPDATE audit_events SET seq = 4 WHERE seq = -1;',
    );
    const result = await log.verify();
    assert.equal(!result.ok && result.firstBad.seq, 3);
    assert.equal(!result.ok && result.firstBad.problem, 'reordered');
    close();
  });

  it('detects a deletion hidden by renumbering and a row rewritten with a recomputed hash', async () => {
    const renumbered = await tamperable();
    renumbered.sqlite.exec(
      'DELETE FROM audit_events WHERE seq = 5; UPDATE audit_events SET seq = seq - 1 WHERE seq > 5;',
    );
    const a = await renumbered.log.verify();
    assert.equal(!a.ok && a.firstBad.seq, 5);
    renumbered.close();

    const rewritten = await tamperable();
    const row = rewritten.sqlite
      .prepare('SELECT * FROM audit_events WHERE seq = 7')
      .get() as Record<string, any>;
    const forged = {
      seq: 7,
      at: row.at,
      type: row.type,
      actor: 'mallory',
      taskId: row.task_id,
      data: row.data,
      prevHash: row.prev_hash,
    };
    rewritten.sqlite
      .prepare('UPDATE audit_events SET actor = ?, hash = ? WHERE seq = 7')
      .run('mallory', rowHash(forged));
    const b = await rewritten.log.verify();
    assert.equal(!b.ok && b.firstBad.seq, 8);
    assert.equal(!b.ok && b.firstBad.problem, 'chain-broken');
    rewritten.close();
  });

  it('keeps one chain when two connections append to the same file', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'audit-')), 'shared.db');
    const a = openLog(path);
    const b = openLog(path);
    for (let i = 0; i < 50; i++)
      await (i % 2 ? a : b).log.append({ type: 'action-executed', actor: `w${i % 2}` });
    const result = await a.log.verify();
    assert.equal(result.ok, true);
    assert.equal(result.rows, 50);
    a.close();
    b.close();
  });
});

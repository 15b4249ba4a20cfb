import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readAuditHead } from '../../../../controlplane/src/governance/audit/audit-head.js';
import {
  type AuditStore,
  createAuditLog,
} from '../../../../controlplane/src/governance/audit/audit-log.js';
import { rowHash } from '../../../../controlplane/src/governance/audit/hash-chain.js';
import { openAuditTrail } from '../../../../controlplane/src/governance/audit/open-audit-trail.js';
import { createAuditRepository } from '../../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';

const clock = { now: () => 1_700_000_000_000 };

function setup(wrap: (store: AuditStore) => AuditStore = (store) => store) {
  const dir = mkdtempSync(join(tmpdir(), 'keyed-audit-'));
  const database = openDatabase(join(dir, 'clawdie.db'));
  const store = wrap(createAuditRepository(database.db));
  const keyFile = join(dir, 'keys', 'audit.key');
  const open = (mode: 'append' | 'verify' = 'append') =>
    openAuditTrail(store, { keyFile, clock, mode });
  return { dir, database, store, keyFile, open };
}

describe('keyed audit chain', () => {
  it('creates the key 0600 outside the database and MACs every row from the first', async () => {
    const { database, keyFile, open } = setup();
    const trail = await open();
    await trail.append({ type: 'task-started', actor: 'system' });
    assert.equal(statSync(keyFile).mode & 0o777, 0o600);
    assert.equal(existsSync(`${keyFile}.head`), true);
    const rows = await trail.list({ limit: 10 });
    assert.deepEqual(
      rows.map((row) => row.type),
      ['audit-keyed', 'task-started'],
    );
    assert.notEqual(rows[1]?.hash, rowHash({ ...(rows[1] as any), data: '{}' }));
    const result = await (await open('verify')).verify();
    assert.equal(result.ok, true);
    assert.equal(result.ok && result.unkeyedRows, 0);
    trail.close();
    database.close();
  });

  it('keeps an existing unkeyed chain verifiable and anchors it at the first keyed row', async () => {
    const { database, store, open } = setup();
    const legacy = createAuditLog(store, clock);
    for (let i = 0; i < 3; i++) await legacy.append({ type: 'action-executed', actor: 'system' });
    const trail = await open();
    await trail.append({ type: 'task-ended', actor: 'system' });
    const ok = await (await open('verify')).verify();
    assert.deepEqual(ok.ok && [ok.rows, ok.unkeyedRows], [5, 3]);
    assert.deepEqual((await trail.list({ afterSeq: 3, limit: 1 }))[0]?.data, {
      keyed_from: 4,
      unkeyed_rows: 3,
    });
    // Rewriting an unkeyed row and re-hashing the unkeyed rows after it breaks the keyed anchor.
    const sqlite = database.db.$client;
    sqlite.exec(
      "DROP TRIGGER audit_events_no_update; UPDATE audit_events SET actor = 'x' WHERE seq = 2",
    );
    let previous = sqlite
      .prepare('SELECT hash FROM audit_events WHERE seq = 1')
      .pluck()
      .get() as string;
    for (const seq of [2, 3]) {
      const raw = sqlite.prepare('SELECT * FROM audit_events WHERE seq = ?').get(seq) as any;
      const hash = rowHash({ ...raw, taskId: raw.task_id, prevHash: previous });
      sqlite
        .prepare('UPDATE audit_events SET prev_hash = ?, hash = ? WHERE seq = ?')
        .run(previous, hash, seq);
      previous = hash;
    }
    const bad = await (await open('verify')).verify();
    assert.deepEqual(!bad.ok && [bad.firstBad.seq, bad.firstBad.problem], [4, 'chain-broken']);
    trail.close();
    database.close();
  });

  it('keeps reporting a tail cut while stopped, even after later appends', async () => {
    const { database, open } = setup();
    const first = await open();
    for (let i = 0; i < 5; i++) await first.append({ type: 'action-executed', actor: 'system' });
    first.close();
    const sqlite = database.db.$client;
    sqlite.exec('DROP TRIGGER audit_events_no_delete; DELETE FROM audit_events WHERE seq > 3');
    const second = await open();
    for (let i = 0; i < 5; i++)
      await second.append({ type: 'action-executed', actor: 'system', data: { i } });
    const result = await (await open('verify')).verify();
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.firstBad.seq, 6);
    second.close();
    database.close();
  });

  it('refuses to verify without the key', async () => {
    const { database, open } = setup();
    await assert.rejects(open('verify'), { code: 'AUDIT_KEY_MISSING' });
    database.close();
  });

  it('ends the head record at the newest row when appends in flight resolve out of order', async () => {
    // Commits stay serialized (the store's transaction); only the answers are held, and released
    // newest first, as a networked store's can come back.
    const gates: (() => void)[] = [];
    let holding = false;
    const { database, keyFile, open } = setup((store) => ({
      ...store,
      async append(build) {
        const row = await store.append(build);
        if (holding) await new Promise<void>((resolve) => gates.push(resolve));
        return row;
      },
    }));
    const trail = await open();
    holding = true;
    const first = trail.append({ type: 'action-executed', actor: 'system', data: { i: 1 } });
    const second = trail.append({ type: 'action-executed', actor: 'system', data: { i: 2 } });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(gates.length, 2);
    gates[1]?.();
    const newest = await second;
    gates[0]?.();
    assert.deepEqual([(await first).seq, newest.seq], [2, 3]);
    trail.close();
    assert.deepEqual(readAuditHead(`${keyFile}.head`), { seq: 3, hash: newest.hash });
    assert.equal((await (await open('verify')).verify()).ok, true);
    database.close();
  });
});

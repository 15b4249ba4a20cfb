// The soak of test/soak/backup-soak.test.ts at a size for the normal suite: 2 backups while 6
// tasks run at once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { soakBackups } from './backup-soak.js';

describe('clawdie backup, repeated under load (small)', () => {
  it('2 backups during 6 concurrent tasks: no lost rows, no integrity errors', async (t) => {
    const figures = await soakBackups(t, { backups: 2, concurrency: 6, replyMs: 60 });
    t.diagnostic(JSON.stringify(figures));
    assert.equal(figures.backups, 2);
    assert.equal(figures.lostRows, 0);
    assert.equal(figures.integrityErrors, 0);
    assert.ok(figures.tasksDuring > 6, `${figures.tasksDuring} tasks ran meanwhile`);
  });
});

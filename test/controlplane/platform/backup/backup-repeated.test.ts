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
    // Under load the whole time: the server wrote steps while each backup ran. (Not "more tasks
    // than the first six": on a busy host a backup can end before any of them does.)
    assert.ok(
      figures.stepsWrittenDuring.every((written) => written > 0),
      `steps written during each backup: ${figures.stepsWrittenDuring.join(', ')}`,
    );
  });
});

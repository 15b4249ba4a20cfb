// `npm run test:soak`: 20 `clawdie backup` processes while a live server keeps 20 tasks running at
// once (model replies 1 s late, so each task lives ~5 s); 0 lost rows, 0 integrity errors, the
// last backup restored and verified.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { soakBackups } from '../controlplane/platform/backup/backup-soak.js';

describe('soak: clawdie backup under load', () => {
  it('20 backups during 20 concurrent tasks: 0 lost rows, 0 integrity errors', async (t) => {
    const figures = await soakBackups(t, { backups: 20, concurrency: 20, replyMs: 1000 });
    t.diagnostic(JSON.stringify(figures));
    assert.equal(figures.backups, 20);
    assert.equal(figures.lostRows, 0);
    assert.equal(figures.integrityErrors, 0);
    assert.ok(figures.tasksDuring > 20, `${figures.tasksDuring} tasks ran meanwhile`);
    assert.ok(figures.stepsWrittenDuring.every((written) => written > 0));
  });
});

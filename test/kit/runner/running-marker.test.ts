// The marker a long-running process writes into its checkout (kit/src/runner/running-marker.ts),
// read by the bootstrap's own reader (setup/bootstrap/running-processes.mjs), which is plain Node
// and shares no code with it: the two agree on the folder, the name and the fields.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { markRunning, RUNNING_MARKER_DIR } from '@clawdie/kit/runner';
import { RUNNING_DIR, runningProcesses } from '../../../setup/bootstrap/running-processes.mjs';

describe('running marker', () => {
  it('is what the bootstrap reads while the process runs, and is gone once removed', (t) => {
    const root = mkdtempSync(join(tmpdir(), 'clawdie-marker-'));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    assert.equal(RUNNING_MARKER_DIR, RUNNING_DIR);
    const startedAt = new Date('2026-11-29T09:30:00.000Z');
    const marker = markRunning('hostd', { root, now: () => startedAt });
    assert.equal(marker.failure, null);
    assert.equal(marker.path, join(root, RUNNING_DIR, `${process.pid}.json`));
    assert.deepEqual(runningProcesses(root), [
      { pid: process.pid, role: 'hostd', startedAt: startedAt.toISOString(), path: marker.path },
    ]);
    marker.remove();
    marker.remove();
    assert.equal(existsSync(marker.path), false);
    assert.deepEqual(runningProcesses(root), []);
  });

  it('never throws where the checkout cannot take it: it says why', (t) => {
    const root = mkdtempSync(join(tmpdir(), 'clawdie-marker-'));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    // A file where node_modules should be: no folder can be made under it, even by root.
    writeFileSync(join(root, 'node_modules'), '');
    const marker = markRunning('server', { root });
    assert.match(marker.failure ?? '', /ENOTDIR|EEXIST/);
    marker.remove();
  });
});

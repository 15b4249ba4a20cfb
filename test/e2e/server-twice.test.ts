// `npm start` twice on one data directory: the second refuses, naming the first (real processes,
// the first with its local jail-service and Chromium); a clean shutdown deregisters the first.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase } from '../../controlplane/src/platform/store/database.js';
import { createInstanceRepository } from '../../controlplane/src/platform/store/instance-repository.js';
import { requires } from '../support/capabilities.js';
import { demoReplayFile, startServerProcess } from '../support/server-process.js';

describe('npm start twice on one data directory', requires('chromium'), () => {
  it('refuses the second with exit code 2 naming the first one pid and URL', async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-twice-'));
    const first = startServerProcess(dataDir, { CLAWDIE_REPLAY_FILE: demoReplayFile });
    t.after(() => first.child.kill('SIGKILL'));
    const url = await first.listening();
    assert.ok(url, first.output());

    const second = startServerProcess(dataDir, { CLAWDIE_REPLAY_FILE: demoReplayFile });
    t.after(() => second.child.kill('SIGKILL'));
    // A second server that does not refuse keeps running: give up after 60 s (code null).
    const timeout = new Promise<[null]>((resolve) =>
      setTimeout(() => resolve([null]), 60_000).unref(),
    );
    const [code] = await Promise.race([second.exited, timeout]);
    assert.equal(code, 2, second.output());
    assert.match(second.output(), /could not start: the data directory .* is in use/);
    assert.ok(second.output().includes(`pid ${first.child.pid}`), second.output());
    assert.ok(second.output().includes(`at ${url}`), second.output());
    assert.equal((await fetch(`${url}/health`)).ok, true, 'the first still serves');
    // A local-mode banner says what confines the local browser and what cannot without root.
    assert.match(
      first.output(),
      /egress: the local browser reaches only its task's domains .* through the egress proxy at http:\/\/127\.0\.0\.1:\d+, .* NOT a firewall without root/,
    );

    first.child.kill('SIGTERM');
    const [firstCode] = await first.exited;
    assert.equal(firstCode, 0, first.output());
    const database = openDatabase(join(dataDir, 'clawdie.db'));
    try {
      assert.deepEqual(await createInstanceRepository(database.db).list(), [], 'deregistered');
    } finally {
      database.close();
    }
  });
});

// `npm start` runs controlplane/bin/clawdie-server.mjs, which starts the server's bundle
// (controlplane/dist/bundle/main.js: ≈ 0.6× the start-up of the compiled files, docs/
// performance.md) while it is at least as new as every workspace's build, else the compiled
// controlplane/dist/main.js. A real server process records every module it loads until it listens.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bundleStaleReason } from '../../../setup/bootstrap/build-stale.mjs';
import { repositoryRoot, startServerProcess } from '../../support/server-process.js';

describe("npm start's launcher", () => {
  it('runs the bundled server while the bundle is current, else the compiled one', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'clawdie-launcher-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const loaded = join(dir, 'loaded.txt');
    const server = startServerProcess(
      join(dir, 'data'),
      {
        CLAWDIE_TEST_LOADED_MODULES: loaded,
        // Not contacted at start.
        CLAWDIE_JAIL_URL: 'http://127.0.0.1:9',
        CLAWDIE_JAIL_TOKEN: 'x'.repeat(32),
      },
      {
        argv: [
          '--import',
          join(repositoryRoot, 'test/support/module-load-recorder.mjs'),
          join(repositoryRoot, 'controlplane/bin/clawdie-server.mjs'),
        ],
      },
    );
    t.after(async () => {
      server.child.kill('SIGTERM');
      await server.exited;
    });
    assert.match(await server.listening(), /^http:\/\/127\.0\.0\.1:\d+$/, server.output());
    const urls = readFileSync(loaded, 'utf8').trim().split('\n');
    const bundled = urls.some((url) => url.endsWith('/controlplane/dist/bundle/main.js'));
    const compiled = urls.some((url) => url.endsWith('/controlplane/dist/main.js'));
    const current = bundleStaleReason(repositoryRoot) === null;
    assert.deepEqual({ bundled, compiled }, { bundled: current, compiled: !current });
  });
});

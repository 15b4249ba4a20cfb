// `npm start` runs controlplane/bin/clawdie-server.mjs, which starts the server from the bundle
// (controlplane/dist/bundle/controlplane.cjs through load-bundle.mjs, compiled from its V8 code
// cache; docs/performance.md) while it is at least as new as every workspace's build, else the
// compiled controlplane/dist/main.js. A real server process records every module it loads through
// the ES module loader until it listens (the bundle itself is compiled by node:vm, not loaded so).
import assert from 'node:assert/strict';
import { isAscii } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { bundleStaleReason } from '../../../setup/bootstrap/build-stale.mjs';
import { RUNNING_DIR, runningProcesses } from '../../../setup/bootstrap/running-processes.mjs';
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
    const bundled = urls.some((url) => url.endsWith('/controlplane/bin/load-bundle.mjs'));
    const compiled = urls.filter((url) => /\/controlplane\/dist\/(?!bundle\/).*\.js$/.test(url));
    const current = bundleStaleReason(repositoryRoot) === null;
    assert.deepEqual(
      { bundled, compiled: compiled.length > 0 },
      { bundled: current, compiled: !current },
      compiled.slice(0, 5).join('\n'),
    );
  });

  it('marks its checkout as running from its start until a clean stop, as the bootstrap reads it', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'clawdie-launcher-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const server = startServerProcess(
      join(dir, 'data'),
      { CLAWDIE_JAIL_URL: 'http://127.0.0.1:9', CLAWDIE_JAIL_TOKEN: 'x'.repeat(32) },
      { argv: [join(repositoryRoot, 'controlplane/bin/clawdie-server.mjs')] },
    );
    t.after(async () => {
      server.child.kill('SIGTERM');
      await server.exited;
    });
    assert.match(await server.listening(), /^http:\/\/127\.0\.0\.1:\d+$/, server.output());
    const pid = server.child.pid ?? 0;
    const marker = join(repositoryRoot, RUNNING_DIR, `${pid}.json`);
    const written = JSON.parse(readFileSync(marker, 'utf8'));
    assert.deepEqual(Object.keys(written), ['pid', 'role', 'started_at']);
    assert.equal(written.pid, pid);
    assert.equal(written.role, 'server');
    assert.ok(Math.abs(Date.parse(written.started_at) - Date.now()) < 120_000, written.started_at);
    // What a bootstrap of this checkout would refuse over (setup/bootstrap/running-processes.mjs).
    const seen = runningProcesses(repositoryRoot).find((running) => running.pid === pid);
    assert.deepEqual(seen, { pid, role: 'server', startedAt: written.started_at, path: marker });

    server.child.kill('SIGTERM');
    const [code] = await server.exited;
    assert.equal(code, 0, server.output());
    assert.equal(existsSync(marker), false, 'the stopped server left its marker');
  });

  it('the build writes a code cache V8 takes for the bundle', { skip: skipUnlessBundled() }, () => {
    const probe = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(pathToFileURL(LOADER).href)});
         m.loadBundle(); process.stdout.write(m.codeCache);`,
      ],
      { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
    );
    assert.equal(probe.status, 0, probe.stderr);
    assert.equal(probe.stdout, 'used');
    // ASCII alone, so the loader reads it as Latin-1 without decoding (bundle-cli.mjs).
    assert.equal(isAscii(readFileSync(join(repositoryRoot, BUNDLE))), true);
  });
});

const LOADER = join(repositoryRoot, 'controlplane/bin/load-bundle.mjs');
const BUNDLE = 'controlplane/dist/bundle/controlplane.cjs';

/** The cache is written with the bundle: without a current one there is nothing to check. */
function skipUnlessBundled(): string | false {
  return bundleStaleReason(repositoryRoot) === null
    ? false
    : 'the bundle is not current (npm test builds it first)';
}

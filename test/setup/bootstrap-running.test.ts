// The bootstrap installs and rebuilds nothing while a Clawdie process of its checkout runs: the
// real setup/bootstrap.mjs, copied into a fake checkout, runs as its own process beside markers
// naming live and gone pids. Its builds run stand-ins (a tsc and two bundlers that only exit 0),
// and `npm` is a stand-in on PATH that records that it ran.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { installIdentity } from '../../setup/bootstrap/npm-packages.mjs';
import { RUNNING_DIR } from '../../setup/bootstrap/running-processes.mjs';
import { repositoryRoot } from '../support/repository-root.js';
import { fakeCheckout, fakeWorkspaces } from './support/fake-checkout.js';

const STAMPS = [
  'kit/dist/.build-stamp',
  'hostd/dist/.build-stamp',
  'controlplane/dist/bundle/.bundle-stamp',
  'node_modules/.clawdie-install-stamp',
];

/** A fake checkout with the repository's bootstrap, installed and built: nothing to do. */
function builtCheckout(): string {
  const dir = fakeCheckout();
  fakeWorkspaces(dir);
  mkdirSync(join(dir, 'setup', 'bootstrap'), { recursive: true });
  copyFileSync(join(repositoryRoot, 'setup/bootstrap.mjs'), join(dir, 'setup/bootstrap.mjs'));
  for (const name of readdirSync(join(repositoryRoot, 'setup/bootstrap'))) {
    if (name.endsWith('.mjs'))
      copyFileSync(
        join(repositoryRoot, 'setup/bootstrap', name),
        join(dir, 'setup/bootstrap', name),
      );
  }
  writeFileSync(join(dir, 'node_modules/.bin/tsc'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(dir, 'node_modules/.bin/tsc'), 0o755);
  writeFileSync(join(dir, 'setup/bootstrap/bundle-cli.mjs'), '');
  mkdirSync(join(dir, 'jail-service/scripts'));
  writeFileSync(join(dir, 'jail-service/scripts/bundle.mjs'), '');
  writeFileSync(join(dir, 'node_modules/.clawdie-install-stamp'), `${installIdentity(dir)}\n`);
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin/npm'), `#!/bin/sh\necho "$@" >> '${join(dir, 'npm-ran')}'\n`, {
    mode: 0o755,
  });
  const first = bootstrap(dir);
  assert.equal(first.status, 0, first.stderr);
  assert.equal(bootstrap(dir).stderr, '', 'the fixture is not current');
  return dir;
}

/** `node setup/bootstrap.mjs cli` in `dir`, with the stand-in npm first on PATH. */
function bootstrap(dir: string) {
  return spawnSync(process.execPath, [join(dir, 'setup/bootstrap.mjs'), 'cli'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}` },
    timeout: 60_000,
  });
}

function writeMarker(dir: string, pid: number, role: string): string {
  const path = join(dir, RUNNING_DIR, `${pid}.json`);
  mkdirSync(join(dir, RUNNING_DIR), { recursive: true });
  const startedAt = '2026-11-29T08:00:00.000Z';
  writeFileSync(path, `${JSON.stringify({ pid, role, started_at: startedAt })}\n`);
  return path;
}

/** A pid no process has any more: a child that has exited. */
function gonePid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  assert.ok(child.pid);
  return child.pid;
}

const mtimes = (dir: string) => STAMPS.map((stamp) => statSync(join(dir, stamp)).mtimeMs);

/** Makes kit stale: its stamp older than its source. */
function makeKitStale(dir: string): void {
  const past = new Date(Date.now() - 60_000);
  utimesSync(join(dir, 'kit/dist/.build-stamp'), past, past);
}

describe('bootstrap beside a running Clawdie process of its checkout', () => {
  it('refuses to install or build while one runs, naming it, and touches nothing', (t) => {
    const dir = builtCheckout();
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    // This test's own process stands for a running server.
    const marker = writeMarker(dir, process.pid, 'server');

    makeKitStale(dir);
    const before = mtimes(dir);
    const build = bootstrap(dir);
    assert.equal(build.status, 1, build.stderr);
    assert.match(
      build.stderr,
      /not building kit \(kit\/src\/main\.ts changed since the last build\)/,
    );
    assert.ok(
      build.stderr.includes(`pid ${process.pid} (server, started 2026-11-29T08:00:00.000Z)`),
      build.stderr,
    );
    assert.ok(build.stderr.includes(`marker ${marker}`), build.stderr);
    assert.match(build.stderr, /Stop it first/);
    assert.match(build.stderr, /If that pid is not Clawdie .* delete the marker/);
    assert.deepEqual(mtimes(dir), before, 'a build or bundle ran');
    assert.equal(existsSync(marker), true);

    writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion":3,"packages":{}}\n');
    const install = bootstrap(dir);
    assert.equal(install.status, 1, install.stderr);
    assert.match(install.stderr, /not installing npm packages \(package-lock\.json/);
    assert.equal(existsSync(join(dir, 'npm-ran')), false, 'npm ci ran');
    assert.deepEqual(mtimes(dir), before);
  });

  it("removes a gone process's marker and goes on; with nothing to do it never reads them", (t) => {
    const dir = builtCheckout();
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const gone = writeMarker(dir, gonePid(), 'hostd');
    makeKitStale(dir);
    const before = mtimes(dir);
    const build = bootstrap(dir);
    assert.equal(build.status, 0, build.stderr);
    assert.match(build.stderr, /building kit/);
    assert.equal(existsSync(gone), false, "the gone process's marker is left");
    const after = mtimes(dir);
    assert.ok((after[0] ?? 0) > (before[0] ?? 0), 'kit was not rebuilt');

    // Current now: neither a live marker (it would refuse) nor a gone one (it would remove it)
    // is looked at.
    const live = writeMarker(dir, process.pid, 'server');
    const stale = writeMarker(dir, gonePid(), 'server');
    const idle = bootstrap(dir);
    assert.equal(idle.status, 0, idle.stderr);
    assert.equal(idle.stderr, '');
    assert.equal(existsSync(live) && existsSync(stale), true);
    assert.deepEqual(mtimes(dir), after);
  });
});

// The bootstrap behind `npm start` and `npm test`: installs only when the installed tree differs
// from the lock file, stamps what it installed, builds only stale workspaces, and leaves every
// tracked file as it was.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildStale, bundleStaleReason, staleReason } from '../../setup/bootstrap/build-stale.mjs';
import {
  ensureNpmPackages,
  localNodeHeaders,
  npmInstallDecision,
} from '../../setup/bootstrap/npm-packages.mjs';
import { testPackages } from '../../setup/bootstrap/system-packages.mjs';
import { repositoryRoot } from '../support/repository-root.js';
import { fakeCheckout, fakeWorkspaces } from './support/fake-checkout.js';

const root = repositoryRoot;
const quiet = () => {};

describe('bootstrap: npm packages', () => {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('installs once with npm ci, stamps it, and the second decision installs nothing', () => {
    const dir = fakeCheckout();
    dirs.push(dir);
    const calls: string[][] = [];
    const run = (argv: string[]) => {
      calls.push(argv);
      return { ok: true, reason: 'exit code 0' };
    };
    assert.equal(npmInstallDecision(dir).install, true);
    assert.equal(ensureNpmPackages(dir, { run, say: quiet }), true);
    assert.deepEqual(calls[0]?.slice(0, 2), ['npm', 'ci']);
    assert.deepEqual(npmInstallDecision(dir), {
      install: false,
      reason: 'node_modules matches package-lock.json',
    });
    assert.equal(ensureNpmPackages(dir, { run, say: quiet }), false);
    assert.equal(calls.length, 1);
  });

  it('builds native modules against the running Node’s own headers when npm has no nodedir', () => {
    // A prefix laid out like Node's packages: bin/node and include/node/node_version.h.
    const prefix = mkdtempSync(join(tmpdir(), 'clawdie-node-prefix-'));
    dirs.push(prefix);
    mkdirSync(join(prefix, 'include', 'node'), { recursive: true });
    const [major, minor, patch] = process.versions.node.split('.');
    const header = (p: string | undefined) =>
      `#define NODE_MAJOR_VERSION ${major}\n#define NODE_MINOR_VERSION ${minor}\n#define NODE_PATCH_VERSION ${p}\n`;
    writeFileSync(join(prefix, 'include', 'node', 'node_version.h'), header(patch));
    const node = join(prefix, 'bin', 'node');
    assert.equal(localNodeHeaders({}, node), prefix);
    assert.equal(
      localNodeHeaders({ npm_config_nodedir: '/opt/node' }, node),
      null,
      'npm config wins',
    );
    writeFileSync(join(prefix, 'include', 'node', 'node_version.h'), header('999'));
    assert.equal(localNodeHeaders({}, node), null, 'headers of another version are not used');
    assert.equal(localNodeHeaders({}, join(tmpdir(), 'nowhere', 'bin', 'node')), null);

    const dir = fakeCheckout();
    dirs.push(dir);
    const envs: (NodeJS.ProcessEnv | undefined)[] = [];
    ensureNpmPackages(dir, {
      run: (_argv: string[], options: { env?: NodeJS.ProcessEnv } = {}) => {
        envs.push(options.env);
        return { ok: true, reason: 'exit code 0' };
      },
      say: quiet,
      env: { PATH: '/usr/bin' },
    });
    const expected = localNodeHeaders({});
    assert.equal(envs[0]?.npm_config_nodedir, expected ?? undefined);
  });

  it('installs again when the lock file changes or node_modules is gone', () => {
    const dir = fakeCheckout();
    dirs.push(dir);
    const run = () => ({ ok: true, reason: 'exit code 0' });
    ensureNpmPackages(dir, { run, say: quiet });
    writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion":3,"packages":{}}\n');
    assert.match(npmInstallDecision(dir).reason, /package-lock.json or the Node version changed/);
    ensureNpmPackages(dir, { run, say: quiet });
    rmSync(join(dir, 'node_modules', '.bin', 'tsc'));
    assert.match(npmInstallDecision(dir).reason, /node_modules is missing/);
  });
});

describe('bootstrap: builds', () => {
  it('builds a workspace only when a source is newer than its last build', () => {
    const dir = fakeCheckout();
    try {
      fakeWorkspaces(dir);
      const built: string[] = [];
      const run = (argv: string[]) => {
        built.push(argv[2] ?? '');
        return { ok: true, reason: 'exit code 0' };
      };
      assert.deepEqual(buildStale(dir, { run, say: quiet }), [
        'kit',
        'jail-service',
        'hostd',
        'controlplane',
        'bundle',
      ]);
      assert.equal(staleReason(dir, 'hostd'), null);
      assert.equal(bundleStaleReason(dir), null);
      assert.deepEqual(buildStale(dir, { run, say: quiet }), []);
      const later = new Date(Date.now() + 5_000);
      utimesSync(join(dir, 'hostd', 'src', 'main.ts'), later, later);
      assert.equal(staleReason(dir, 'hostd'), 'hostd/src/main.ts changed since the last build');
      // The CLI bundle holds every workspace's code: one rebuilt workspace rebundles it.
      assert.deepEqual(buildStale(dir, { run, say: quiet }), ['hostd', 'bundle']);
      const tsc = (workspace: string) => join(workspace, 'tsconfig.build.json');
      assert.deepEqual(built, [
        ...['kit', 'jail-service', 'hostd', 'controlplane'].map(tsc),
        // The jail-service's bundle (its argv has no third word), after the kit or it was built.
        '',
        dir,
        tsc('hostd'),
        dir,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bootstrap: the CLI bundle', () => {
  it('a failed bundle is not fatal: no bundle is left, and the next run tries again', () => {
    const dir = fakeCheckout();
    try {
      fakeWorkspaces(dir);
      const stale = join(dir, 'controlplane', 'dist', 'bundle', 'controlplane.cjs');
      mkdirSync(dirname(stale), { recursive: true });
      writeFileSync(stale, '// an old bundle');
      const said: string[] = [];
      const run = (argv: string[]) =>
        argv[2] === dir
          ? { ok: false, reason: 'exit code 1' }
          : { ok: true, reason: 'exit code 0' };
      const say = (message: string) => said.push(message);
      assert.deepEqual(buildStale(dir, { run, say }), [
        'kit',
        'jail-service',
        'hostd',
        'controlplane',
      ]);
      assert.equal(existsSync(stale), false, 'an old bundle would run old code');
      assert.match(said.at(-1) ?? '', /bundling the clawdie CLI failed \(exit code 1\)/);
      assert.equal(bundleStaleReason(dir), 'the clawdie CLI bundle has never been built');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bootstrap on this checkout', () => {
  const status = () =>
    execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' });

  it('run twice, it installs and builds nothing the second time and changes no tracked file', () => {
    const before = status();
    const runs = [1, 2].map(() =>
      spawnSync(process.execPath, [join(root, 'setup', 'bootstrap.mjs'), 'cli'], {
        cwd: root,
        encoding: 'utf8',
        timeout: 170_000,
      }),
    );
    for (const result of runs) assert.equal(result.status, 0, result.stderr);
    assert.equal(runs[1]?.stderr, '', 'the second run had work to do');
    assert.equal(status(), before);
    if (process.env.CI) assert.equal(status(), '', 'CI runs in a fresh clone: nothing may change');
  });

  it('names every Debian package npm test needs in the README install line', async () => {
    const readme = await import('node:fs').then((fs) =>
      fs.readFileSync(join(root, 'README.md'), 'utf8'),
    );
    const line = readme.split('\n').find((text) => text.includes('sudo apt-get install -y'));
    assert.ok(line, 'README has no `sudo apt-get install -y …` line');
    for (const pkg of testPackages())
      assert.ok(line.split(/\s+/).includes(pkg), `${pkg} is not in: ${line}`);
  });
});

// The bootstrap keeps a native module it had to compile (better-sqlite3, where its release
// download is out of reach) for the next install: packed as the project's releases are, under
// the lock file's integrity, where the real prebuild-install finds it before any download. The
// round trip runs the installed prebuild-install against a package folder with nothing built, with
// the download host refusing connections: it installs only from the kept tarball.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  keepPrebuilds,
  prebuildCacheRoot,
  prebuildEnv,
  prebuildSlots,
} from '../../setup/bootstrap/native-prebuilds.mjs';
import { runner } from '../../setup/bootstrap/prepare-code.mjs';
import { repositoryRoot } from '../support/repository-root.js';

const quiet = () => {};
const installed = join(repositoryRoot, 'node_modules', 'better-sqlite3');
const binary = 'build/Release/better_sqlite3.node';
const lock = JSON.parse(readFileSync(join(repositoryRoot, 'package-lock.json'), 'utf8'));
const locked = lock.packages['node_modules/better-sqlite3'];

describe('bootstrap: native builds kept for the next install', () => {
  const dirs: string[] = [];
  const temp = (name: string) => {
    const dir = mkdtempSync(join(tmpdir(), `clawdie-prebuild-${name}-`));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  /** A checkout whose better-sqlite3 was just compiled: the installed binary. */
  const justBuilt = () => {
    const checkout = temp('checkout');
    copyFileSync(join(repositoryRoot, 'package-lock.json'), join(checkout, 'package-lock.json'));
    const built = join(checkout, 'node_modules', 'better-sqlite3', binary);
    mkdirSync(join(built, '..'), { recursive: true });
    copyFileSync(join(installed, binary), built);
    return checkout;
  };

  it('names the tarball as prebuild-install asks for it, under the locked integrity', () => {
    const [slot, ...rest] = prebuildSlots(repositoryRoot, '/cache');
    assert.equal(rest.length, 0);
    assert.ok(slot);
    assert.equal(slot.name, 'better-sqlite3');
    assert.equal(
      slot.file,
      `better-sqlite3-v${locked.version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`,
    );
    assert.match(slot.dir, /^\/cache\/better-sqlite3-[0-9a-f]{16}$/);
    assert.deepEqual(prebuildEnv([slot]), {
      npm_config_better_sqlite3_local_prebuilds: slot.dir,
    });
    // Another integrity (a new version in the lock) is another folder.
    const other = temp('lock');
    const changed = structuredClone(lock);
    changed.packages['node_modules/better-sqlite3'].integrity = 'sha512-other';
    mkdirSync(other, { recursive: true });
    writeJson(join(other, 'package-lock.json'), changed);
    assert.notEqual(prebuildSlots(other, '/cache')[0]?.dir, slot.dir);
    assert.deepEqual(prebuildSlots(repositoryRoot, null), [], 'no cache folder, no slots');
    assert.equal(prebuildCacheRoot({ XDG_CACHE_HOME: '/x' }, '/home/u'), '/x/clawdie/prebuilds');
    assert.equal(prebuildCacheRoot({}, '/home/u'), '/home/u/.cache/clawdie/prebuilds');
  });

  it('keeps a compiled binary once, and the real prebuild-install installs from it offline', () => {
    const checkout = justBuilt();
    const slots = prebuildSlots(checkout, temp('cache'));
    const run = runner(checkout);
    const [kept] = keepPrebuilds(checkout, slots, { run, say: quiet });
    assert.ok(kept && existsSync(kept));
    assert.deepEqual(keepPrebuilds(checkout, slots, { run, say: quiet }), [], 'kept once');
    assert.deepEqual(
      readdirSync(slots[0]?.dir ?? '').filter((name) => name.endsWith('.partial')),
      [],
    );

    // The next clone: the package without its build, prebuild-install as its install script runs it.
    const install = (env: Record<string, string>) => {
      const fresh = temp('package');
      copyFileSync(join(installed, 'package.json'), join(fresh, 'package.json'));
      const result = spawnSync(
        process.execPath,
        [join(repositoryRoot, 'node_modules', 'prebuild-install', 'bin.js')],
        {
          cwd: fresh,
          encoding: 'utf8',
          timeout: 30_000,
          env: {
            PATH: process.env.PATH ?? '/usr/bin:/bin',
            HOME: temp('home'),
            // A download would go here and be refused at once.
            npm_config_better_sqlite3_binary_host: 'http://127.0.0.1:9',
            ...env,
          },
        },
      );
      return { status: result.status, file: join(fresh, binary), output: result.stderr };
    };
    const offline = install(prebuildEnv(slots));
    assert.equal(offline.status, 0, offline.output);
    assert.ok(
      readFileSync(offline.file).equals(readFileSync(join(installed, binary))),
      'the kept binary was unpacked where the package loads it',
    );
    // Without the kept tarball the same install has nothing to unpack (it would compile).
    const without = install({});
    assert.notEqual(without.status, 0);
    assert.equal(existsSync(without.file), false);
  });

  it('reports a tarball it cannot write and leaves no partial file', () => {
    const checkout = justBuilt();
    const slots = prebuildSlots(checkout, temp('cache'));
    const said: string[] = [];
    const failing = (argv: string[]) =>
      argv[0] === 'tar' ? { ok: false, reason: 'exit code 2' } : runner(checkout)(argv);
    assert.deepEqual(
      keepPrebuilds(checkout, slots, { run: failing, say: (m: string) => said.push(m) }),
      [],
    );
    assert.match(said.join('\n'), /could not keep the better-sqlite3 build \(exit code 2\)/);
    assert.deepEqual(readdirSync(slots[0]?.dir ?? ''), []);
  });
});

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, JSON.stringify(value));
}

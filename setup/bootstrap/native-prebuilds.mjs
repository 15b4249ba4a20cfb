// Native modules built here once, kept for the next install. better-sqlite3 installs with
// prebuild-install, which downloads a binary from its project's release page; where that is out of
// reach (a machine that reaches only the npm registry, any FreeBSD host) it compiles SQLite from
// source instead, which took most of a fresh clone's `npm ci` on 2 cores. After the first such
// build the bootstrap packs the binary the way the project's releases do, into a folder of the
// user's cache named by the package's integrity hash from package-lock.json; prebuild-install
// looks in that folder before it downloads (`npm_config_<package>_local_prebuilds`), so the next
// clone unpacks it, loads it to check it and skips the compile. A tarball is found only under the
// lock file's exact integrity, Node ABI, platform and architecture; anything else compiles as
// before. Writes nothing inside the repository.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Packages installed by prebuild-install, and the binary each one builds. */
const PREBUILT = [{ name: 'better-sqlite3', binary: 'build/Release/better_sqlite3.node' }];

/** The user's cache folder for prebuilds, or null when there is no home to keep one in. */
export function prebuildCacheRoot(env = process.env, home = homedir()) {
  const base = env.XDG_CACHE_HOME || (home ? join(home, '.cache') : '');
  return base ? join(base, 'clawdie', 'prebuilds') : null;
}

/**
 * For each prebuilt package in the lock file: where its tarball is kept, the tarball's name as
 * prebuild-install asks for it, and the environment variable that points prebuild-install there.
 */
export function prebuildSlots(root, cacheRoot, versions = process.versions, host = process) {
  if (!cacheRoot) return [];
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const slots = [];
  for (const { name, binary } of PREBUILT) {
    const entry = lock.packages?.[`node_modules/${name}`];
    if (!entry?.version || !entry.integrity) continue;
    const key = createHash('sha256').update(entry.integrity).digest('hex').slice(0, 16);
    const dir = join(cacheRoot, `${name}-${key}`);
    const file = `${name}-v${entry.version}-node-v${versions.modules}-${host.platform}-${host.arch}.tar.gz`;
    const variable = `npm_config_${name.replace(/[^a-zA-Z0-9]/g, '_')}_local_prebuilds`;
    slots.push({ name, binary, dir, file, variable });
  }
  return slots;
}

/** The variables that point prebuild-install at the kept tarballs. */
export function prebuildEnv(slots) {
  return Object.fromEntries(slots.map((slot) => [slot.variable, slot.dir]));
}

/**
 * After an install: keeps each binary not yet kept (`tar` as on Debian and FreeBSD), best effort:
 * a failure is reported and the next install compiles again. Returns the tarballs written.
 */
export function keepPrebuilds(root, slots, { run, say }) {
  const written = [];
  for (const slot of slots) {
    const target = join(slot.dir, slot.file);
    const packageDir = join(root, 'node_modules', slot.name);
    if (existsSync(target) || !existsSync(join(packageDir, slot.binary))) continue;
    try {
      mkdirSync(slot.dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      say(
        `could not keep the ${slot.name} build (${error.message}); the next install builds it again`,
      );
      continue;
    }
    // Written beside, then renamed: a half-written tarball is never found by the next install.
    const partial = `${target}.${process.pid}.partial`;
    const packed = run(['tar', '-czf', partial, '-C', packageDir, slot.binary]);
    const moved = packed.ok && run(['mv', '-f', partial, target]).ok;
    if (!moved) {
      run(['rm', '-f', partial]);
      say(
        `could not keep the ${slot.name} build (${packed.reason ?? 'mv failed'}); the next install builds it again`,
      );
      continue;
    }
    say(`kept the ${slot.name} build for the next install: ${target}`);
    written.push(target);
  }
  return written;
}

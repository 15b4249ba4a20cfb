// npm packages for the bootstrap: install exactly what package-lock.json pins, only when what is
// installed is not what the lock file says. `npm ci` never writes package-lock.json (npm 10 and 11
// disagree on optional `libc` fields, so `npm install` would rewrite a tracked file), and the stamp
// is taken after the install from the lock file and the Node ABI it was built for.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  keepPrebuilds,
  prebuildCacheRoot,
  prebuildEnv,
  prebuildSlots,
} from './native-prebuilds.mjs';
import { refuseWhileRunning } from './running-processes.mjs';

const STAMP = join('node_modules', '.clawdie-install-stamp');

/** What the installed tree must match: the lock file's bytes and the Node ABI of native modules. */
export function installIdentity(root) {
  const lock = readFileSync(join(root, 'package-lock.json'));
  const hash = createHash('sha256').update(lock).digest('hex');
  return `${hash} node-abi-${process.versions.modules} ${process.platform}-${process.arch}`;
}

/** Whether `npm ci` must run, and why. Pure apart from reading files. */
export function npmInstallDecision(root) {
  if (!existsSync(join(root, 'node_modules', '.bin', 'tsc'))) {
    return { install: true, reason: 'node_modules is missing or incomplete' };
  }
  const stampPath = join(root, STAMP);
  if (!existsSync(stampPath)) return { install: true, reason: 'no record of a finished install' };
  const stamp = readFileSync(stampPath, 'utf8').trim();
  if (stamp !== installIdentity(root)) {
    return { install: true, reason: 'package-lock.json or the Node version changed since' };
  }
  return { install: false, reason: 'node_modules matches package-lock.json' };
}

/**
 * The running Node's own headers (`<prefix>/include/node`, as Node's packages install them) when
 * they are this exact version: a native module without a prebuilt binary (better-sqlite3 where
 * its download is out of reach, any module on FreeBSD) then compiles against them instead of
 * node-gyp downloading headers. Null when npm already has a `nodedir`, or there are none.
 */
export function localNodeHeaders(env = process.env, execPath = process.execPath) {
  if (env.npm_config_nodedir || env.NPM_CONFIG_NODEDIR) return null;
  const prefix = dirname(dirname(execPath));
  const header = join(prefix, 'include', 'node', 'node_version.h');
  if (!existsSync(header)) return null;
  const text = readFileSync(header, 'utf8');
  const part = (name) => new RegExp(`#define NODE_${name}_VERSION (\\d+)`).exec(text)?.[1];
  const version = `${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}`;
  return version === process.versions.node ? prefix : null;
}

/** Runs `npm ci` when needed; returns whether it installed. Exits the process on failure. */
export function ensureNpmPackages(root, { run, say, env = process.env }) {
  const decision = npmInstallDecision(root);
  if (!decision.install) return false;
  refuseWhileRunning(root, `installing npm packages (${decision.reason})`, { say });
  say(`installing npm packages (npm ci, pinned by package-lock.json): ${decision.reason} ...`);
  const nodedir = localNodeHeaders(env);
  const slots = prebuildSlots(root, prebuildCacheRoot(env));
  const result = run(['npm', 'ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    env: { ...env, ...prebuildEnv(slots), ...(nodedir ? { npm_config_nodedir: nodedir } : {}) },
  });
  if (!result.ok) {
    say(`npm ci failed (${result.reason}). Check that the npm registry is reachable and retry.`);
    process.exit(1);
  }
  keepPrebuilds(root, slots, { run, say });
  writeFileSync(join(root, STAMP), `${installIdentity(root)}\n`);
  return true;
}

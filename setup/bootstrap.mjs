#!/usr/bin/env node
// Fresh-machine bootstrap for `npm start` and `npm test`. Plain Node ESM with no dependencies,
// because it runs before the npm packages are installed. In order: npm packages exactly as the
// lock file pins them (only when they differ), system packages (apt-get or pkg as root, else the
// exact line to run), then a build of the workspaces whose sources changed. Writes no tracked file.
// Installs and builds nothing while a Clawdie server or hostd of this checkout runs (it still loads
// code from here): it says which and exits 1 (bootstrap/running-processes.mjs).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStale } from './bootstrap/build-stale.mjs';
import { ensureNpmPackages } from './bootstrap/npm-packages.mjs';
import { runner, say } from './bootstrap/prepare-code.mjs';
import { ensureSystemPackages } from './bootstrap/system-packages.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** `start` (npm start), `test` (npm test, test:soak) or `cli` (the clawdie command). */
const mode = process.argv[2] ?? 'test';

const run = runner(root);

const major = Number(process.versions.node.split('.')[0]);
if (major < 20) {
  say(`Node ${process.versions.node} is too old: Clawdie needs Node 20 or newer.`);
  process.exit(1);
}
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
ensureNpmPackages(root, { run, say });
const modes =
  mode === 'start' && isRoot && process.platform === 'linux' ? [mode, 'start-root'] : [mode];
// `cli` (the clawdie command) only brings the code up to date; its commands check their programs.
if (mode !== 'cli') ensureSystemPackages({ env: process.env, modes, isRoot, run, say });
buildStale(root, { run, say });

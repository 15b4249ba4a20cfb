// The controlplane's one-file bundle (controlplane/dist/bundle/controlplane.cjs, built by
// setup/bootstrap/bundle-cli.mjs), compiled through V8 with its code cache (controlplane.cache):
// compiling from the cache skips most of what parsing and compiling the bundle costs the
// `clawdie` command and the server at every start (docs/performance.md, "CLI start-up"). A cache
// V8 refuses (another node, other flags) or a missing one only costs that time again.
//
// `node controlplane/bin/load-bundle.mjs --write-code-cache` is the build's step that writes the
// cache: it evaluates the modules `clawdie run` and the server load, starting nothing. The cache is
// code: only the build writes it, never a command. `… clawdie ARGS…` and `… server` run a role
// from the bundle without the bootstrap's up-to-date check (the tests, once `npm test` built).
import { isAscii } from 'node:buffer';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'bundle');
export const BUNDLE_FILE = join(dir, 'controlplane.cjs');
const CACHE_FILE = join(dir, 'controlplane.cache');

/** How the bundle was compiled: from its code cache, or parsed (`absent`, `refused`). */
export let codeCache = 'absent';

/** The bundle's exports (controlplane/src/bundle-entry.ts), or null when it was never built. */
export function loadBundle({ withCache = true } = {}) {
  if (!existsSync(BUNDLE_FILE)) return null;
  const cachedData = withCache && existsSync(CACHE_FILE) ? readFileSync(CACHE_FILE) : undefined;
  // Module.wrap gives the file CommonJS's own names; a `#!` line is no JavaScript inside it. The
  // build writes it in ASCII alone (bundle-cli.mjs), read as Latin-1: the same text as UTF-8, a
  // one-byte string and no decoding (≈ 20 ms less at every start); any other bytes, as UTF-8.
  const bytes = readFileSync(BUNDLE_FILE);
  const text = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const source = text.replace(/^#!.*/, '');
  const script = new vm.Script(Module.wrap(source), {
    filename: BUNDLE_FILE,
    ...(cachedData ? { cachedData } : {}),
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  codeCache = !cachedData ? 'absent' : script.cachedDataRejected ? 'refused' : 'used';
  const bundle = { exports: {}, script };
  script.runInThisContext()(bundle.exports, createRequire(BUNDLE_FILE), bundle, BUNDLE_FILE, dir);
  return bundle;
}

/** Run as a script: write the cache, or run one role from the bundle without the bootstrap. */
async function main([role, ...args]) {
  if (!['clawdie', 'server', '--write-code-cache'].includes(role))
    throw new Error(`load-bundle: ${role}: use clawdie ARGS..., server or --write-code-cache`);
  const bundle = loadBundle({ withCache: role !== '--write-code-cache' });
  if (!bundle)
    throw new Error(`${BUNDLE_FILE}: not built (node setup/bootstrap.mjs cli builds it)`);
  if (role === 'clawdie') return bundle.exports.runCli(args);
  if (role === 'server') return bundle.exports.runServer();
  await bundle.exports.loadCommandModules();
  writeFileSync(`${CACHE_FILE}.tmp`, bundle.script.createCachedData());
  renameSync(`${CACHE_FILE}.tmp`, CACHE_FILE);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));

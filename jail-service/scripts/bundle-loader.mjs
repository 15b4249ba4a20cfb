// The jail-service bundle's entry, copied to dist/bundle/main.mjs by scripts/bundle.mjs. It runs
// service.cjs (the whole service as one CommonJS file) through V8 with service.cache, the code
// cache written at build time by this same file with `--write-code-cache`: compiling the bundle
// from the cache costs a clone about half of what parsing and compiling it does
// (docs/performance.md). A cache V8 refuses (another node, other flags) or a missing one only
// costs that time again. The cache is written by the build, never by a clone: it is code.
import { isAscii } from 'node:buffer';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const here = dirname(fileURLToPath(import.meta.url));
const file = join(here, 'service.cjs');
const cacheFile = join(here, 'service.cache');
const writing = process.argv.includes('--write-code-cache');

function readCache() {
  if (writing) return undefined;
  try {
    return readFileSync(cacheFile);
  } catch {
    return undefined;
  }
}

const cachedData = readCache();
// The bundle is written in ASCII alone (scripts/bundle.mjs), read as Latin-1: the same text as
// UTF-8, a one-byte string and no decoding; any other bytes, as UTF-8.
const bytes = readFileSync(file);
const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
const script = new vm.Script(Module.wrap(source), {
  filename: file,
  ...(cachedData ? { cachedData } : {}),
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
/** How the bundle was compiled, for the service's start-up log (`code cache`). */
globalThis.__clawdieCodeCache = !cachedData
  ? 'absent'
  : script.cachedDataRejected
    ? 'refused'
    : 'used';
const service = { exports: {} };
script.runInThisContext()(service.exports, createRequire(file), service, file, here);

if (writing) {
  await service.exports.loadServiceModules();
  writeFileSync(`${cacheFile}.tmp`, script.createCachedData());
  renameSync(`${cacheFile}.tmp`, cacheFile);
} else {
  await service.exports.runService().catch((error) => {
    process.stderr.write(`jail-service: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}

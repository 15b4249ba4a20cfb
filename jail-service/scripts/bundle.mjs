#!/usr/bin/env node
// `node jail-service/scripts/bundle.mjs`: bundles the compiled jail-service (dist/main.js, with
// the kit and every pure-JS package it imports, puppeteer-core included) into one ES module,
// dist/bundle/main.mjs (and the chunk it imports once Chromium is spawned), with esbuild. A clone starts a fresh jail-service every time, and loading
// ~700 module files cost it more than Chromium's own start (docs/performance.md, "Clone-to-
// ready"); one file loads in a fraction of that. sharp (native) stays in node_modules, loaded by
// createRequire from the bundle's own URL. hostd runs the bundle only while it is newer than every
// compiled file it holds (hostd/src/drivers/select-driver.ts), else dist/main.js.
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(packageDir, 'dist', 'bundle');

const { build } = await import('esbuild');
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [join(packageDir, 'dist', 'main.js')],
  bundle: true,
  // main.mjs holds only what runs before Chromium is spawned; the rest is a chunk it imports.
  splitting: true,
  chunkNames: 'chunk-[hash]',
  outExtension: { '.js': '.mjs' },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir,
  minifySyntax: true,
  minifyWhitespace: true,
  external: ['sharp'],
  logLevel: 'warning',
  // CommonJS packages inside an ES module bundle still call require().
  banner: {
    js: "import { createRequire as __clawdieCreateRequire } from 'node:module'; const require = __clawdieCreateRequire(import.meta.url);",
  },
});
writeFileSync(join(outdir, 'package.json'), '{ "type": "module" }\n');

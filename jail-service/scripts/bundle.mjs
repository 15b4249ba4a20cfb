#!/usr/bin/env node
// `node jail-service/scripts/bundle.mjs`: bundles the compiled jail-service (dist/bundle-entry.js,
// with the kit and every pure-JS package it imports, puppeteer-core included) into one CommonJS
// file, dist/bundle/service.cjs, with esbuild; writes its V8 code cache (service.cache) by loading
// every module once under the flags clones run with; and last its entry, dist/bundle/main.mjs
// (scripts/bundle-loader.mjs). A clone starts a fresh jail-service every time: ~700 module files
// cost it more than Chromium's own start, one file a fraction of that, and from the code cache
// about half again (docs/performance.md, "Clone-to-ready"). The service's own modules still load
// once Chromium is spawned (esbuild keeps a dynamic import lazy). sharp (native) stays in
// node_modules, loaded by createRequire from the bundle's own path. hostd runs the bundle only
// while its entry is newer than every compiled file it holds (hostd/src/drivers/service-bundle.ts),
// else dist/main.js.
import { spawnSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(packageDir, 'dist', 'bundle');

/**
 * Every character past ASCII as a `\\uXXXX` escape, in the files that have any (a selector
 * parser's regular expressions in puppeteer-core): esbuild escapes them in strings but not in
 * regular expressions or templates, and one such character makes the whole bundle a two-byte
 * string the loader must decode as UTF-8, ≈ 20 ms more at every clone's start than a pure-ASCII
 * file read as Latin-1 (bundle-loader.mjs). The same value wherever JavaScript reads an escape;
 * only a template's `raw` text would differ. The controlplane's bundler does the same
 * (setup/bootstrap/bundle-cli.mjs); this package keeps its own copy, needing nothing outside it.
 */
const asciiOnly = {
  name: 'ascii-only',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.[cm]?js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!/[\u0080-\uffff]/.test(source)) return undefined;
      // A leading byte-order mark is no character of the program (escaped: a syntax error).
      const contents = source
        .replace(/^\uFEFF/, '')
        .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      return { contents, loader: 'js' };
    });
  },
};

const { build } = await import('esbuild');
const { SERVICE_NODE_FLAGS } = await import(join(packageDir, 'dist', 'node-flags.js'));
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [join(packageDir, 'dist', 'bundle-entry.js')],
  bundle: true,
  outfile: join(outdir, 'service.cjs'),
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  external: ['sharp'],
  logLevel: 'warning',
  // Licence comments beside the bundle (service.cjs.LEGAL.txt): names past ASCII (asciiOnly).
  legalComments: 'linked',
  plugins: [asciiOnly],
  // ES modules of the service ask import.meta.url (e.g. to load sharp): the bundle's own URL.
  define: { 'import.meta.url': '__clawdieBundleUrl' },
  banner: { js: "const __clawdieBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
});
copyFileSync(join(packageDir, 'scripts', 'bundle-loader.mjs'), join(outdir, 'loader.mjs'));
const written = spawnSync(
  process.execPath,
  [...SERVICE_NODE_FLAGS, join(outdir, 'loader.mjs'), '--write-code-cache'],
  // An explicit, empty environment: loading the modules needs none.
  { stdio: 'inherit', env: {} },
);
if (written.status !== 0) throw new Error(`writing the code cache failed (exit ${written.status})`);
// The entry last: hostd takes the bundle as current only while main.mjs is the newest file.
copyFileSync(join(outdir, 'loader.mjs'), join(outdir, 'main.mjs'));
rmSync(join(outdir, 'loader.mjs'));

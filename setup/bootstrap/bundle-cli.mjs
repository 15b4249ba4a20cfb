#!/usr/bin/env node
// `node setup/bootstrap/bundle-cli.mjs [root]`: bundles the compiled controlplane — the `clawdie`
// command and the server `npm start` runs (controlplane/dist/bundle-entry.js), with the kit, hostd
// and jail-service code and the pure-JS packages they import — into one CommonJS file,
// controlplane/dist/bundle/controlplane.cjs, with esbuild; then writes its V8 code cache
// (controlplane.cache) with controlplane/bin/load-bundle.mjs. Loading ~600 module files cost the
// CLI more start-up than all its other work; one file compiled from its cache costs a fraction of
// that (docs/performance.md, "CLI start-up"). The commands' own modules still load only when a
// command runs (esbuild keeps a dynamic import lazy). Native and load-on-demand packages stay in
// node_modules. Each compiled file's `import.meta.url` is rewritten to that file's own URL,
// relative to the bundle, so the paths it resolves (migrations, policies, the demo site) stay right
// wherever the bundle sits; `import.meta.resolve` becomes a resolve from the bundle.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..'));
const outdir = join(root, 'controlplane', 'dist', 'bundle');
/** Native addons, packages loaded with `createRequire` on first use, and tsx (a child's loader). */
const EXTERNAL = ['better-sqlite3', 'sharp', 'grammy', 'ajv', 'tsx', 'puppeteer-core'];
const ownDist = new RegExp(
  `^${root.replaceAll(sep, '/').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(controlplane|kit|hostd|jail-service)/dist/.*\\.js$`,
);
/** CommonJS stand-ins for what ES modules ask of `import.meta` (the bundle's require resolves). */
const fileUrl = (path) => `require("node:url").pathToFileURL(${path}).href`;
const RESOLVE = `((specifier) => ${fileUrl('require.resolve(specifier)')})`;

/**
 * Every character past ASCII as a `\\uXXXX` escape. esbuild escapes them in strings itself, not in
 * template literals (the dashboard's html`…`), and one such character makes the whole bundle a
 * two-byte string that load-bundle.mjs must decode as UTF-8: ≈ 20 ms more at every start than a
 * pure-ASCII file read as Latin-1. The same value everywhere JavaScript reads an escape (strings,
 * templates as hono's html reads them, regular expressions, identifiers); only a template's `raw`
 * text would differ, and no own code reads it.
 */
function escapeNonAscii(source) {
  // A leading byte-order mark is no character of the program (escaped, it would be a syntax error).
  return source
    .replace(/^\uFEFF/, '')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const { build } = await import('esbuild');
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [join(root, 'controlplane', 'dist', 'bundle-entry.js')],
  bundle: true,
  outfile: join(outdir, 'controlplane.cjs'),
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  // Read only under --enable-source-maps: stack traces then name the compiled files.
  sourcemap: 'linked',
  // The packages' licence comments in controlplane.cjs.LEGAL.txt beside it, named at its end: they
  // carry names past ASCII, which would make the bundle need UTF-8 decoding (escapeNonAscii).
  legalComments: 'linked',
  external: EXTERNAL,
  logLevel: 'warning',
  plugins: [
    {
      name: 'own-import-meta',
      setup(esbuild) {
        esbuild.onLoad({ filter: /\.js$/ }, async (args) => {
          const path = args.path.replaceAll(sep, '/');
          if (!ownDist.test(path)) return undefined;
          const source = await readFile(args.path, 'utf8');
          const ascii = !/[\u0080-\uffff]/.test(source);
          if (ascii && !source.includes('import.meta.')) return undefined;
          const own = JSON.stringify(relative(outdir, args.path).replaceAll(sep, '/'));
          const contents = escapeNonAscii(source)
            .replaceAll('import.meta.url', fileUrl(`require("node:path").join(__dirname, ${own})`))
            .replaceAll('import.meta.resolve(', `${RESOLVE}(`);
          if (contents.includes('import.meta')) throw new Error(`${path}: import.meta left`);
          return { contents, loader: 'js' };
        });
      },
    },
  ],
});
const written = spawnSync(
  process.execPath,
  [join(root, 'controlplane', 'bin', 'load-bundle.mjs'), '--write-code-cache'],
  // An explicit, empty environment: evaluating the modules needs none.
  { stdio: 'inherit', env: {} },
);
if (written.status !== 0) throw new Error(`writing the code cache failed (exit ${written.status})`);

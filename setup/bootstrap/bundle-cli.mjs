#!/usr/bin/env node
// `node setup/bootstrap/bundle-cli.mjs [root]`: bundles the compiled `clawdie` CLI
// (controlplane/dist/cli.js, with the kit, hostd and jail-service code and the pure-JS packages
// it imports) and the server `npm start` runs (controlplane/dist/main.js) into
// controlplane/dist/bundle/ (cli.js, main.js) with esbuild, the two sharing one chunk per part.
// Loading ~600 module files cost the CLI more start-up than all its other work, and the server
// half of its start-up; a few chunks load in a fraction of that. Native and load-on-demand packages stay in node_modules. Each compiled
// file's `import.meta.url` is rewritten to that file's own URL, relative to the bundle, so the
// paths it resolves (migrations, policies, the demo site) stay right wherever the bundle sits.
import { rmSync, writeFileSync } from 'node:fs';
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

const { build } = await import('esbuild');
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: {
    cli: join(root, 'controlplane', 'dist', 'cli.js'),
    main: join(root, 'controlplane', 'dist', 'main.js'),
  },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir,
  chunkNames: 'chunk-[hash]',
  // Read only under --enable-source-maps: stack traces then name the compiled files.
  sourcemap: 'linked',
  external: EXTERNAL,
  logLevel: 'warning',
  // CommonJS packages inside an ES module bundle still call require().
  banner: {
    js: "import { createRequire as __clawdieCreateRequire } from 'node:module'; const require = __clawdieCreateRequire(import.meta.url);",
  },
  plugins: [
    {
      name: 'own-import-meta-url',
      setup(esbuild) {
        esbuild.onLoad({ filter: /\.js$/ }, async (args) => {
          const path = args.path.replaceAll(sep, '/');
          if (!ownDist.test(path)) return undefined;
          const source = await readFile(args.path, 'utf8');
          if (!source.includes('import.meta.url')) return undefined;
          const own = relative(outdir, args.path).replaceAll(sep, '/');
          const url = `new URL(${JSON.stringify(own)}, import.meta.url).href`;
          return { contents: source.replaceAll('import.meta.url', url), loader: 'js' };
        });
      },
    },
  ],
});
writeFileSync(join(outdir, 'package.json'), '{ "type": "module" }\n');

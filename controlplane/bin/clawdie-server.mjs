#!/usr/bin/env node
// The controlplane server as `npm start` runs it, after the bootstrap brought the build up to
// date: the bundled server (controlplane/dist/bundle/main.js, setup/bootstrap/bundle-cli.mjs),
// which starts in about half the time and CPU of the ~600 compiled module files, while it is at
// least as new as every workspace's build; else the compiled controlplane/dist/main.js. Either is
// the same code: controlplane/src/main.ts.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const { bundleStaleReason } = await import(
  pathToFileURL(join(root, 'setup', 'bootstrap', 'build-stale.mjs')).href
);
const bundled = join(here, '..', 'dist', 'bundle', 'main.js');
const current = existsSync(bundled) && bundleStaleReason(root) === null;
await import(pathToFileURL(current ? bundled : join(here, '..', 'dist', 'main.js')).href);

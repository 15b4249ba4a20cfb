#!/usr/bin/env node
// The controlplane server as `npm start` runs it, after the bootstrap brought the build up to
// date: the bundle (controlplane/dist/bundle/controlplane.cjs with its code cache,
// setup/bootstrap/bundle-cli.mjs; load-bundle.mjs), which starts in about half the time and CPU
// of the ~600 compiled module files, while it is at least as new as every workspace's build; else
// the compiled controlplane/dist/main.js. Either is the same code: controlplane/src/server-main.ts.
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '..', '..', '..');
const { bundleStaleReason } = await import(
  pathToFileURL(join(root, 'setup', 'bootstrap', 'build-stale.mjs')).href
);
const bundle =
  bundleStaleReason(root) === null ? (await import('./load-bundle.mjs')).loadBundle() : null;
if (bundle) await bundle.exports.runServer();
else await import(pathToFileURL(join(root, 'controlplane', 'dist', 'main.js')).href);

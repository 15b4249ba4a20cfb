#!/usr/bin/env node
// The `clawdie` command (`npx clawdie …` in the checkout, or after `npm install -g`). Brings the
// compiled code up to date first, in this process (installs, builds and bundles only what changed,
// writing to stderr alone), then runs the CLI, so stdout carries nothing but the command's own output
// (JSON, MCP). `node setup/bootstrap.mjs cli` does the same preparation on its own.
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '..', '..', '..');
// By path, as the bootstrap script of the checkout, not as a package: it runs before
// node_modules (and so @clawdie/setup) may exist, to install them.
const bootstrap = join(root, 'setup', 'bootstrap', 'prepare-code.mjs');
const { prepareCode } = await import(pathToFileURL(bootstrap).href);
prepareCode(root);
// The bundle (setup/bootstrap/bundle-cli.mjs): one file compiled from its code cache instead of
// ~600 module files; the compiled files themselves where bundling failed.
const { loadBundle } = await import('./load-bundle.mjs');
const bundle = loadBundle();
if (bundle) await bundle.exports.runCli(process.argv.slice(2));
else await import(pathToFileURL(join(root, 'controlplane', 'dist', 'cli.js')).href);

#!/usr/bin/env node
// The `clawdie` command (`npx clawdie …` in the checkout, or after `npm install -g`). Brings the
// compiled code up to date first — the bootstrap builds only what changed and writes to stderr
// alone — then runs the CLI, so stdout carries nothing but the command's own output (JSON, MCP).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bootstrap = join(here, '..', '..', 'setup', 'bootstrap.mjs');
const prepared = spawnSync(process.execPath, [bootstrap, 'cli'], { stdio: ['ignore', 2, 2] });
if (prepared.status !== 0) {
  process.stderr.write(`clawdie: could not prepare the installation (see above)\n`);
  process.exit(prepared.status ?? 2);
}
await import(pathToFileURL(join(here, '..', 'dist', 'cli.js')).href);

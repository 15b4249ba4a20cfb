// What every entry needs before it runs compiled code: npm packages as package-lock.json pins
// them, and the workspaces built when a source changed. Plain Node ESM with no dependencies; it
// writes to stderr only (children too), so a caller's stdout stays its own. The `clawdie` command
// calls it in its own process (a spawned bootstrap cost a second Node start-up on every run).
import { spawnSync } from 'node:child_process';
import { buildStale } from './build-stale.mjs';
import { ensureNpmPackages } from './npm-packages.mjs';

export function say(message) {
  process.stderr.write(`[clawdie bootstrap] ${message}\n`);
}

/** Runs `argv` in `root` with stdout and stderr on our stderr; never throws. */
export function runner(root) {
  return (argv, options = {}) => {
    const result = spawnSync(argv[0], argv.slice(1), {
      cwd: root,
      stdio: ['ignore', 2, 2],
      ...options,
    });
    if (result.error) return { ok: false, reason: result.error.message };
    return { ok: result.status === 0, reason: `exit code ${result.status}` };
  };
}

/** Installs and builds what is out of date (each a no-op when nothing changed); exits on failure. */
export function prepareCode(root) {
  const run = runner(root);
  ensureNpmPackages(root, { run, say });
  buildStale(root, { run, say });
}

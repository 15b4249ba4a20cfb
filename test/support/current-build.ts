// Whether the compiled code is built from the current sources: `npm test` builds before the tests
// (setup/bootstrap.mjs test), so there it always is; after an edit without a build it is not.
// Tests that start Clawdie as its own process then start what ships — `npm start`'s bundled
// server, the `clawdie` command's bundle, hostd/dist/main.js — in a fraction
// of the CPU the sources need under tsx (docs/performance.md, "Test suite"), else the sources.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BUILT_WORKSPACES,
  bundleStaleReason,
  staleReason,
} from '../../setup/bootstrap/build-stale.mjs';
import { repositoryRoot } from './repository-root.js';

const root = repositoryRoot;

const workspacesCurrent = BUILT_WORKSPACES.every(
  (workspace) => staleReason(root, workspace) === null,
);

/** node's arguments: `compiled` when built from the current sources, else `source` under tsx. */
function entry(compiled: string, source: string, alsoCurrent = true): readonly string[] {
  const built = join(root, compiled);
  return workspacesCurrent && alsoCurrent && existsSync(built)
    ? [built]
    : ['--conditions=source', '--import', 'tsx', join(root, source)];
}

const bundleCurrent = bundleStaleReason(root) === null;

/** The bundle (setup/bootstrap/bundle-cli.mjs) running one role, through its loader. */
const fromBundle = (role: string) =>
  workspacesCurrent && bundleCurrent
    ? [join(root, 'controlplane/bin/load-bundle.mjs'), role]
    : null;

/** The controlplane server, as `npm start` runs it (controlplane/bin/clawdie-server.mjs). */
export const SERVER_ARGV =
  fromBundle('server') ?? entry('controlplane/dist/main.js', 'controlplane/src/main.ts');

/** `clawdie`, as its bundle runs it. */
export const CLAWDIE_ARGV =
  fromBundle('clawdie') ?? entry('controlplane/dist/cli.js', 'controlplane/src/cli.ts', false);

/** The jail-service's compiled entry as a process of its own (the bundle is tested in clones). */
export const JAIL_SERVICE_ARGV = entry('jail-service/dist/main.js', 'jail-service/src/main.ts');

/** hostd, as its service runs it. */
export const HOSTD_ARGV = entry('hostd/dist/main.js', 'hostd/src/main.ts');

/** Where this file runs from: the compiled tree of a run (test-tree.mjs), or the checkout. */
const runningRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * node's arguments for a test-support script (a path like `test/support/x.ts`) run as its own
 * process: its compiled copy when the tests run compiled (run-tests.sh), else the source under
 * tsx — as the test itself runs.
 */
export function supportScriptArgv(path: string): readonly string[] {
  const compiled = join(runningRoot, path.replace(/\.ts$/, '.js'));
  return existsSync(compiled)
    ? [compiled]
    : ['--conditions=source', '--import', 'tsx', join(root, path)];
}

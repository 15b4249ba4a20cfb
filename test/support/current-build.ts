// Whether the compiled code is built from the current sources: `npm test` builds before the tests
// (setup/bootstrap.mjs test), so there it always is; after an edit without a build it is not.
// Tests that start Clawdie as its own process then start what ships — `npm start`'s
// controlplane/dist/main.js, the `clawdie` command's bundle — in a fraction of the CPU the sources
// need under tsx (docs/performance.md, "Test suite"), and fall back to the sources otherwise.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BUILT_WORKSPACES,
  bundleStaleReason,
  staleReason,
} from '../../setup/bootstrap/build-stale.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const workspacesCurrent = BUILT_WORKSPACES.every(
  (workspace) => staleReason(root, workspace) === null,
);

/** `path` (from the repository root) when the workspaces are built from the current sources. */
function current(path: string, alsoCurrent = true): string | null {
  const full = join(root, path);
  return workspacesCurrent && alsoCurrent && existsSync(full) ? full : null;
}

/** The controlplane's compiled entry, as `npm start` runs it; null: run the sources. */
export const compiledServer = current(join('controlplane', 'dist', 'main.js'));

/** The `clawdie` command's bundle (setup/bootstrap/bundle-cli.mjs); null: run the sources. */
export const bundledCli = current(
  join('controlplane', 'dist', 'bundle', 'cli.js'),
  bundleStaleReason(root) === null,
);

/** node's arguments for `clawdie`: its bundle when current, else cli.ts under tsx (cwd: the root). */
export const CLAWDIE_ARGV: readonly string[] = bundledCli
  ? [bundledCli]
  : ['--conditions=source', '--import', 'tsx', join(root, 'controlplane', 'src', 'cli.ts')];

/** node's arguments for hostd: hostd/dist/main.js (as its service runs it) when current. */
export const HOSTD_ARGV: readonly string[] = ((compiled) =>
  compiled
    ? [compiled]
    : ['--conditions=source', '--import', 'tsx', join(root, 'hostd', 'src', 'main.ts')])(
  current(join('hostd', 'dist', 'main.js')),
);

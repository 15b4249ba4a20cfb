// The record that a long-running Clawdie process (the controlplane server, hostd) runs from this
// checkout: `<checkout>/node_modules/.cache/clawdie-running/<pid>.json`, written when it starts and
// removed when it stops. Such a process loads code from the checkout after its start (the Telegram
// bot, the MCP SDK, puppeteer, sharp, its own chunks; clones bind the code read-only), so the
// bootstrap (setup/bootstrap/running-processes.mjs) installs and rebuilds nothing while one runs.
// A process killed without stopping leaves its file; the bootstrap removes it once the pid is gone.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The markers' folder under the checkout, as the bootstrap reads it (running-processes.mjs). */
export const RUNNING_MARKER_DIR = join('node_modules', '.cache', 'clawdie-running');

/** Who wrote a marker: the controlplane's `npm start` / `clawdie serve`, or hostd. */
export type RunningRole = 'server' | 'hostd';

export interface RunningMarker {
  /** The marker file. */
  readonly path: string;
  /** Why it could not be written (the bootstrap then cannot see this process); null if written. */
  readonly failure: string | null;
  /** Removes the marker; idempotent, never throws. */
  remove(): void;
}

/**
 * The checkout this code runs from, found from this file's own place as the controlplane finds
 * its shipped files (config.ts, clawdie-version.ts): kit/src/runner/ and kit/dist/runner/ sit at
 * the same depth, and the controlplane's bundle gives each compiled file its own URL
 * (setup/bootstrap/bundle-cli.mjs).
 */
function checkoutRoot(): string {
  return fileURLToPath(new URL('../../../', import.meta.url));
}

/**
 * Writes this process's marker (atomically: a complete file renamed into place) and returns it.
 * Never throws: a checkout this process may not write to (another user's) is reported in
 * `failure`, and the process runs on unseen.
 */
export function markRunning(
  role: RunningRole,
  options: { root?: string; pid?: number; now?: () => Date } = {},
): RunningMarker {
  const pid = options.pid ?? process.pid;
  const dir = join(options.root ?? checkoutRoot(), RUNNING_MARKER_DIR);
  const path = join(dir, `${pid}.json`);
  const record = { pid, role, started_at: (options.now?.() ?? new Date()).toISOString() };
  let failure: string | null = null;
  try {
    mkdirSync(dir, { recursive: true });
    const temporary = `${path}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(record)}\n`);
    renameSync(temporary, path);
  } catch (error) {
    failure = (error as Error).message;
  }
  let removed = failure !== null;
  return {
    path,
    failure,
    remove() {
      if (removed) return;
      removed = true;
      try {
        rmSync(path, { force: true });
      } catch {
        // A file left behind names a pid that is gone by then: the bootstrap removes it.
      }
    },
  };
}

// Long-running Clawdie processes of this checkout, as the bootstrap sees them before it installs or
// rebuilds. The controlplane server and hostd each write `node_modules/.cache/clawdie-running/
// <pid>.json` ({ pid, role, started_at }) when they start and remove it when they stop
// (kit/src/runner/running-marker.ts): such a process still loads code from the checkout (the
// Telegram bot, the MCP SDK, puppeteer, sharp, its own chunks; clones bind it read-only), so
// replacing node_modules or the builds under it breaks it. A process killed without stopping
// leaves its file behind; it is removed here once its pid is gone: kill(pid, 0), and on Linux
// also /proc/<pid>/cmdline (a pid reused by something that is not Node); FreeBSD, without /proc,
// goes by the pid alone (not run on a FreeBSD host).
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** The markers' folder under the checkout (RUNNING_MARKER_DIR of @clawdie/kit/runner). */
export const RUNNING_DIR = join('node_modules', '.cache', 'clawdie-running');

/**
 * False when no process has this pid (ESRCH; EPERM is another user's live process), or when
 * Linux's /proc says the pid now runs something that is not Node (a killed server's pid reused).
 */
function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return error.code !== 'ESRCH';
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return true; // no /proc (FreeBSD) or not readable: the pid is all there is to go by
  }
}

/** What a marker says; a marker that cannot be read still names its pid (its file name). */
function readMarker(path) {
  try {
    const marker = JSON.parse(readFileSync(path, 'utf8'));
    return {
      role: typeof marker.role === 'string' ? marker.role : 'unknown role',
      startedAt: typeof marker.started_at === 'string' ? marker.started_at : 'unknown',
    };
  } catch {
    return { role: 'unknown role', startedAt: 'unknown' };
  }
}

/**
 * The live processes the markers in `root` name, as `{ pid, role, startedAt, path }`; removes the
 * markers of processes that are gone. None when the folder does not exist.
 */
export function runningProcesses(root) {
  const dir = join(root, RUNNING_DIR);
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const running = [];
  for (const name of names.sort()) {
    const pid = Number(/^(\d+)\.json$/.exec(name)?.[1]);
    if (!(pid > 0)) continue;
    const path = join(dir, name);
    if (alive(pid)) {
      running.push({ pid, ...readMarker(path), path });
      continue;
    }
    try {
      rmSync(path, { force: true });
    } catch {
      // Another user's folder: the stale marker stays, and still blocks nothing.
    }
  }
  return running;
}

/**
 * Called once the bootstrap knows it has work (`work`: what it was about to do), never on the path
 * where everything is current: exits 1 before touching anything while a Clawdie process of this
 * checkout runs, naming each and saying what to do.
 */
export function refuseWhileRunning(root, work, { say }) {
  const running = runningProcesses(root);
  if (running.length === 0) return;
  say(
    `not ${work}: a Clawdie process runs from this checkout and still loads code from it, so installing or rebuilding now would break it:`,
  );
  for (const found of running) {
    say(`  pid ${found.pid} (${found.role}, started ${found.startedAt}), marker ${found.path}`);
  }
  say(
    'Stop it first, then run this again (upgrade in this order: back up, stop, pull, start; docs/operations.md).',
  );
  say('If that pid is not Clawdie (the marker outlived its process), delete the marker.');
  process.exit(1);
}

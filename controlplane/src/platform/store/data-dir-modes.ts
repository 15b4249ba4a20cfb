// Owner-only permissions for the data dir: it holds the database (tasks, audit chain, sessions),
// screenshots and recordings of every task, the signing keys and the secret vault. A fresh
// install is created 0700/0600; an existing one with looser modes is tightened at start.
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const DATA_DIR_MODE = 0o700;
export const DATA_FILE_MODE = 0o600;

/** One permission change made by `tightenDataDir`, for the start-up log. */
export interface ModeChange {
  path: string;
  /** Octal strings, e.g. `755` → `700`. */
  from: string;
  to: string;
}

/**
 * Creates `dataDir` (0700) if missing, then takes group and other permissions away from it, the
 * database and its -wal/-shm/-journal files, and the `traces` dirs (one per task). Returns what it
 * changed. Throws only when the directory cannot be created or a mode cannot be changed.
 */
export function tightenDataDir(dataDir: string, databasePath: string): ModeChange[] {
  mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
  const changes: ModeChange[] = [];
  const tighten = (path: string, mode: number) => {
    if (!existsSync(path)) return;
    const current = statSync(path).mode & 0o777;
    const wanted = current & mode;
    if (current === wanted) return;
    chmodSync(path, wanted);
    changes.push({ path, from: current.toString(8), to: wanted.toString(8) });
  };
  tighten(dataDir, DATA_DIR_MODE);
  for (const suffix of ['', '-wal', '-shm', '-journal'])
    tighten(`${databasePath}${suffix}`, DATA_FILE_MODE);
  const traces = join(dataDir, 'traces');
  tighten(traces, DATA_DIR_MODE);
  if (existsSync(traces)) {
    for (const entry of readdirSync(traces, { withFileTypes: true })) {
      if (entry.isDirectory()) tighten(join(traces, entry.name), DATA_DIR_MODE);
    }
  }
  return changes;
}

// The database side of `clawdie backup` and `clawdie restore`: an online snapshot through SQLite
// itself (never a file copy of a live database or its WAL), and the checks and fix-ups of a copy.
import { chmodSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { DATA_FILE_MODE } from './data-dir-modes.js';
import { openDatabaseReadOnly } from './database.js';

/** What a snapshot holds, for the manifest. */
export interface SnapshotFacts {
  sqliteVersion: string;
  /** Applied drizzle migrations (rows of `__drizzle_migrations`). */
  migrations: number;
  tasks: number;
  /** Tasks with an end time: every one of them is complete in the snapshot. */
  tasksEnded: number;
  auditRows: number;
  auditTail: { seq: number; hash: string } | null;
  sessionProfiles: number;
  secrets: number;
}

/** A trace file a snapshot's rows name (screenshots) or may have (a finished recording). */
export interface TraceReference {
  taskId: string;
  /** The file's name in `traces/<taskId>/`. */
  name: string;
}

/**
 * Writes a consistent copy of the live database at `sourcePath` to `destPath` (which must not
 * exist) with `VACUUM INTO` on a separate read-only connection: one read transaction, so a server
 * writing meanwhile neither blocks it nor is blocked, and the source's files are never touched by
 * anything but SQLite. The copy is a single file (rollback journal), mode 0600.
 */
export function snapshotDatabase(sourcePath: string, destPath: string): void {
  const source = openDatabaseReadOnly(sourcePath);
  try {
    source.db.$client.prepare('VACUUM INTO ?').run(destPath);
  } finally {
    source.close();
  }
  chmodSync(destPath, DATA_FILE_MODE);
}

/**
 * Prepares a snapshot copy to be restored anywhere: the registry of running processes
 * (`instances`) is emptied, since those processes run on the source, not on the copy (left in, a
 * restored copy on the same host would be refused as "in use" by the source's server), and the
 * store's identity is dropped (`dropStoreIdentity`).
 */
export function clearInstances(path: string): void {
  withCopy(path, (sqlite) => {
    sqlite.prepare('DELETE FROM instances').run();
    deleteStoreIdentity(sqlite);
  });
}

/**
 * Drops a copy's store identity, so that the copy makes its own when it first starts: a restored
 * copy running beside its source on one hostd must not pass for the source's store, or each would
 * take the other's live clones for orphans (`browser/provider/orphan-clones.ts`).
 */
export function dropStoreIdentity(path: string): void {
  withCopy(path, deleteStoreIdentity);
}

function deleteStoreIdentity(sqlite: Database.Database): void {
  // A copy made before the table existed has none: its first start's migration makes it empty.
  const table = sqlite
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'store_identity'")
    .get();
  if (table) sqlite.prepare('DELETE FROM store_identity').run();
}

/** `PRAGMA integrity_check` of a database file: `['ok']` when intact, else SQLite's findings. */
export function integrityCheck(path: string): string[] {
  const database = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return database
      .prepare<[], { integrity_check: string }>('PRAGMA integrity_check')
      .all()
      .map((row) => row.integrity_check);
  } finally {
    database.close();
  }
}

/** Counts and versions of a snapshot copy. */
export function snapshotFacts(path: string): SnapshotFacts {
  const database = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const count = (sql: string) => (database.prepare(sql).pluck().get() as number) ?? 0;
    const tail = database
      .prepare<[], { seq: number; hash: string }>(
        'SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1',
      )
      .get();
    return {
      sqliteVersion: database.prepare('SELECT sqlite_version()').pluck().get() as string,
      migrations: count('SELECT count(*) FROM __drizzle_migrations'),
      tasks: count('SELECT count(*) FROM tasks'),
      tasksEnded: count('SELECT count(*) FROM tasks WHERE ended_at IS NOT NULL'),
      auditRows: count('SELECT count(*) FROM audit_events'),
      auditTail: tail ?? null,
      sessionProfiles: count('SELECT count(*) FROM session_profiles'),
      secrets: count('SELECT count(*) FROM secrets'),
    };
  } finally {
    database.close();
  }
}

/** Only names the screenshot store itself writes (`traces/<task>/<name>.jpg`). */
const safeName = /^[A-Za-z0-9-]+$/;

/**
 * The trace files a snapshot refers to: each step's and each task's final screenshot, and every
 * task's `recording.mp4` (present only once finalised). Paths in the rows are absolute; only the
 * task id and the file name count, so files are read from this data dir's `traces/` and nowhere
 * else.
 */
export function traceReferences(path: string): TraceReference[] {
  const database = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = database
      .prepare<[], { task_id: string; path: string }>(
        `SELECT task_id, screenshot_path AS path FROM steps WHERE screenshot_path IS NOT NULL
         UNION SELECT id, final_screenshot_path FROM tasks WHERE final_screenshot_path IS NOT NULL`,
      )
      .all();
    const ids = database.prepare('SELECT id FROM tasks').pluck().all() as string[];
    const references = new Map<string, TraceReference>();
    const add = (taskId: string, name: string) => {
      if (safeName.test(taskId) && safeName.test(name.replace(/\.(jpg|mp4)$/, '')))
        references.set(`${taskId}/${name}`, { taskId, name });
    };
    for (const row of rows) add(row.task_id, basename(row.path));
    for (const id of ids) add(id, 'recording.mp4');
    return [...references.values()];
  } finally {
    database.close();
  }
}

/**
 * Points a restored copy's screenshot paths (stored absolute) at `tracesDir`, the restored data
 * dir's `traces/`; left alone they would name the source's files. Returns how many it changed.
 */
export function rewriteTracePaths(path: string, tracesDir: string): number {
  let changed = 0;
  withCopy(path, (sqlite) => {
    const at = (taskId: string, stored: string) => join(tracesDir, taskId, basename(stored));
    const steps = sqlite
      .prepare<[], { id: number; task_id: string; path: string }>(
        'SELECT id, task_id, screenshot_path AS path FROM steps WHERE screenshot_path IS NOT NULL',
      )
      .all();
    const setStep = sqlite.prepare('UPDATE steps SET screenshot_path = ? WHERE id = ?');
    for (const step of steps) changed += setStep.run(at(step.task_id, step.path), step.id).changes;
    const tasks = sqlite
      .prepare<[], { id: string; path: string }>(
        'SELECT id, final_screenshot_path AS path FROM tasks WHERE final_screenshot_path IS NOT NULL',
      )
      .all();
    const setTask = sqlite.prepare('UPDATE tasks SET final_screenshot_path = ? WHERE id = ?');
    for (const task of tasks) changed += setTask.run(at(task.id, task.path), task.id).changes;
  });
  return changed;
}

/** The migrations this build knows (`controlplane/drizzle/meta/_journal.json`). */
export function knownMigrations(): number {
  const journal = fileURLToPath(new URL('../../../drizzle/meta/_journal.json', import.meta.url));
  return (JSON.parse(readFileSync(journal, 'utf8')) as { entries: unknown[] }).entries.length;
}

/** Runs `change` in one transaction on a copy that no server uses (rollback journal). */
function withCopy(path: string, change: (sqlite: Database.Database) => void): void {
  const database = new Database(path, { fileMustExist: true });
  try {
    database.pragma('journal_mode = DELETE');
    database.transaction(() => change(database))();
  } finally {
    database.close();
  }
  chmodSync(path, DATA_FILE_MODE);
}

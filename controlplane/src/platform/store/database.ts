// Opens the SQLite database (better-sqlite3, WAL) and applies the committed drizzle migrations.
import { closeSync, constants, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { AppError } from '../../errors.js';
import * as schema from './schema.js';

/** The drizzle database; `$client` is the better-sqlite3 handle for hot paths (audit appends). */
export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export interface OpenDatabaseResult {
  db: Db;
  close(): void;
}

/** Migrations live in `controlplane/drizzle`, two levels up from both src/store and dist/store. */
const migrationsFolder = fileURLToPath(new URL('../../../drizzle', import.meta.url));

/**
 * Opens (creating if needed) the database at `path` (`:memory:` for tests), enables WAL and
 * foreign keys, and applies pending migrations. Throws when the file cannot be opened.
 */
export function openDatabase(path: string): OpenDatabaseResult {
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    createOwnerOnly(path);
  }
  const sqlite = new Database(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  const db = drizzle(sqlite, { schema });
  try {
    applyMigrations(sqlite, db, migrationsFolder);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return { db, close: () => sqlite.close() };
}

/**
 * Applies the pending migrations in `folder` with foreign keys off, then turns them on. drizzle
 * runs every migration inside one transaction, where SQLite ignores `PRAGMA foreign_keys`, so a
 * migration that rebuilds a table (create the new one, copy, `DROP TABLE` the old, rename) would
 * otherwise delete every row that references the dropped table through `ON DELETE CASCADE` — a
 * task's steps and events. The references are checked afterwards (SQLite's own procedure for
 * schema changes); one that no longer resolves refuses to start (`DATABASE_MIGRATION_BROKE_REFERENCES`)
 * with the rows still there.
 */
export function applyMigrations(sqlite: Database.Database, db: Db, folder: string): void {
  sqlite.pragma('foreign_keys = OFF');
  migrate(db, { migrationsFolder: folder });
  const broken = sqlite.pragma('foreign_key_check') as { table: string; parent: string }[];
  if (broken.length > 0) {
    const where = [...new Set(broken.map((row) => `${row.table} → ${row.parent}`))].join(', ');
    throw new AppError(
      'DATABASE_MIGRATION_BROKE_REFERENCES',
      `after the migrations, ${broken.length} row(s) reference rows that are gone (${where}); nothing was deleted: restore the backup taken before the upgrade or report the migration`,
    );
  }
  sqlite.pragma('foreign_keys = ON');
}

/**
 * Creates `path` owner-only when it does not exist (SQLite gives -wal and -shm the same mode).
 * An existing file is never opened here: closing any descriptor of a file drops every POSIX lock
 * this process holds on it, including those of its live SQLite connections. Without them another
 * process (an admin's `sqlite3 … .backup`) takes itself for the last connection and deletes
 * the live -wal, and this process goes on writing into the unlinked file.
 */
function createOwnerOnly(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  closeSync(fd);
}

/**
 * Opens an existing database read-only, without migrating (`clawdie audit verify`): creates no
 * file. Throws AppError `DATABASE_MISSING` when `path` does not exist.
 */
export function openDatabaseReadOnly(path: string): OpenDatabaseResult {
  if (!existsSync(path)) {
    throw new AppError(
      'DATABASE_MISSING',
      `no database at ${path}: point CLAWDIE_DATA_DIR at the controlplane's data directory`,
    );
  }
  const sqlite = new Database(path, { readonly: true, fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  const db = drizzle(sqlite, { schema });
  return { db, close: () => sqlite.close() };
}

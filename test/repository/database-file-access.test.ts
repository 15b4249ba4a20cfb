// The database files are touched only through SQLite (issue 19, point 1). A raw open, read, copy,
// rename or unlink of clawdie.db or its -wal/-shm in a process that has the database open drops
// that process's POSIX locks (any close of any descriptor of the file does), or copies a torn
// page set: either way a live server loses writes. A source file that names the database files
// and also uses raw file APIs fails here unless it is listed with the reason it is safe.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const ROOTS = ['kit/src', 'controlplane/src', 'hostd/src', 'jail-service/src', 'setup/src'];

/** Files allowed both, and why. */
const ALLOWED: Record<string, string> = {
  'controlplane/src/platform/store/database.ts':
    'creates a missing database file with O_EXCL (never opens an existing one)',
  'controlplane/src/config.ts': 'names the path; reads only *_FILE secrets from the environment',
  'controlplane/src/platform/backup/create-backup.ts':
    'snapshots the database with VACUUM INTO on its own connection; reads only key and head files',
  'controlplane/src/platform/backup/restore-backup.ts':
    "copies a backup's files into a fresh staging dir that no process has open",
};

const NAMES_DATABASE = /databasePath|clawdie\.db|['"`]-(?:wal|shm|journal)['"`]/;
const RAW_FILE_API =
  /\b(?:openSync|open|copyFileSync|copyFile|cpSync|cp|createReadStream|createWriteStream|readFileSync|readFile|renameSync|rename|unlinkSync|unlink|rmSync|rm|truncateSync|truncate)\(/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mjs)$/.test(entry.name) ? [path] : [];
  });
}

describe('database file access', () => {
  it('only SQLite opens, copies or removes the database files', () => {
    const offenders = ROOTS.flatMap(sourceFiles).filter((file) => {
      const text = readFileSync(file, 'utf8');
      return NAMES_DATABASE.test(text) && RAW_FILE_API.test(text) && !(file in ALLOWED);
    });
    assert.deepEqual(offenders, []);
  });

  it('the guard sees what it guards: the database module names the file and opens one', () => {
    const text = readFileSync('controlplane/src/platform/store/database.ts', 'utf8');
    assert.ok(RAW_FILE_API.test(text) && /O_EXCL/.test(text));
    assert.ok(NAMES_DATABASE.test(readFileSync('controlplane/src/config.ts', 'utf8')));
  });
});

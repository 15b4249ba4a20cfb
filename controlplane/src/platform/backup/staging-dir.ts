// A directory built beside its target and renamed into place at the end, so a backup (or a
// restored data dir) is either complete or absent: a crash leaves only a `.<name>.partial-*`.
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { DATA_DIR_MODE, DATA_FILE_MODE } from '../store/data-dir-modes.js';
import { BackupError } from './backup-errors.js';

/** Throws BACKUP_TARGET_NOT_EMPTY unless `path` is absent or an empty directory. */
export function assertFreshTarget(path: string, what: string): void {
  if (!existsSync(path)) return;
  if (!statSync(path).isDirectory() || readdirSync(path).length > 0) {
    throw new BackupError(
      'BACKUP_TARGET_NOT_EMPTY',
      `${what} ${path} exists and is not empty: name a new directory (or an empty one)`,
    );
  }
}

export interface StagingDir {
  readonly path: string;
  /** Creates the parent directories of `relative` (0700) and returns its absolute path. */
  place(relative: string): string;
  /** Copies `source` to `relative` (0600, fsynced), hashing what it wrote. */
  copy(source: string, relative: string): Promise<{ sha256: string; bytes: number }>;
  /** Renames the staging dir to `target`; `last` is moved last if entries must move one by one. */
  publish(target: string, last: string): void;
  /** Removes the staging dir and everything in it; idempotent. */
  discard(): void;
}

/** Creates `.<target>.partial-<random>` (0700) beside `target`, making the parent if needed. */
export function createStagingDir(target: string): StagingDir {
  mkdirSync(dirname(target), { recursive: true, mode: DATA_DIR_MODE });
  const path = join(
    dirname(target),
    `.${basename(target)}.partial-${randomBytes(4).toString('hex')}`,
  );
  mkdirSync(path, { mode: DATA_DIR_MODE });
  chmodSync(path, DATA_DIR_MODE);
  const place = (relative: string) => {
    const absolute = join(path, relative);
    mkdirSync(dirname(absolute), { recursive: true, mode: DATA_DIR_MODE });
    return absolute;
  };
  return {
    path,
    place,
    async copy(source, relative) {
      const destination = place(relative);
      const hash = createHash('sha256');
      let bytes = 0;
      const input = await open(source, 'r');
      const output = await open(destination, 'wx', DATA_FILE_MODE);
      try {
        for await (const chunk of input.createReadStream({ autoClose: false })) {
          const buffer = chunk as Buffer;
          hash.update(buffer);
          bytes += buffer.length;
          await output.write(buffer);
        }
        await output.sync();
      } finally {
        await input.close();
        await output.close();
      }
      return { sha256: hash.digest('hex'), bytes };
    },
    publish(target, last) {
      syncTree(path);
      try {
        // Atomic; replaces `target` only when it is an empty directory.
        renameSync(path, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EBUSY') {
          throw new BackupError(
            'BACKUP_TARGET_NOT_EMPTY',
            `could not move the result into ${target}: ${(error as Error).message}`,
            error,
          );
        }
        moveEntries(path, target, last); // `target` is a mount point: fill it, `last` at the end.
      }
      syncDir(dirname(target));
    },
    discard() {
      rmSync(path, { recursive: true, force: true });
    },
  };
}

function moveEntries(from: string, to: string, last: string): void {
  const names = readdirSync(from).sort((a, b) => Number(a === last) - Number(b === last));
  for (const name of names) renameSync(join(from, name), join(to, name));
  rmSync(from, { recursive: true, force: true });
}

/** fsync of every directory under `root`, so the renames that follow survive a crash. */
function syncTree(root: string): void {
  for (const entry of readdirSync(root, { withFileTypes: true }))
    if (entry.isDirectory()) syncTree(join(root, entry.name));
  syncDir(root);
}

function syncDir(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

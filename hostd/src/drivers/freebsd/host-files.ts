// The file side of the FreeBSD driver (per-task jail.conf, PF file, token inside the clone): a
// small port so the fake FreeBSD host can model files together with datasets and mounts.
import { chown, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface WriteOptions {
  /** File mode, e.g. 0o400 for the token. */
  mode: number;
  /** Numeric owner; left to the writer (root) when absent. */
  uid?: number;
}

/** File operations on the host. Missing files are values (null / []), never exceptions. */
export interface HostFiles {
  /** Creates missing parent directories and replaces the file atomically enough for hostd. */
  write(path: string, content: string, options: WriteOptions): Promise<void>;
  /** The file's content, or null when it does not exist. */
  read(path: string): Promise<string | null>;
  /** Ensures the file is absent. */
  remove(path: string): Promise<void>;
  /** Renames when `from` exists; resolves false when it does not. */
  rename(from: string, to: string): Promise<boolean>;
  /** Entry names in `dir`, or [] when it does not exist. */
  list(dir: string): Promise<string[]>;
  /** Size in bytes, or null when the file does not exist. */
  size(path: string): Promise<number | null>;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}

/** The real adapter on node:fs. */
export function createNodeHostFiles(): HostFiles {
  return {
    async write(path, content, options) {
      await mkdir(dirname(path), { recursive: true, mode: 0o755 });
      await writeFile(path, content, { mode: options.mode });
      if (options.uid !== undefined) await chown(path, options.uid, 0);
    },
    async read(path) {
      try {
        return await readFile(path, 'utf8');
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async remove(path) {
      await rm(path, { force: true });
    },
    async rename(from, to) {
      try {
        await rename(from, to);
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async list(dir) {
      try {
        return await readdir(dir);
      } catch (error) {
        if (isMissing(error)) return [];
        throw error;
      }
    },
    async size(path) {
      try {
        return (await stat(path)).size;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
  };
}

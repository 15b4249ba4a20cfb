// Replaces a small file whole: written beside it, flushed, then renamed over it. A reader (a
// backup copying the trace directory, `clawdie tasks artifacts`) sees the old content or the new,
// never a half-written one, and a crash mid-write leaves the old file.
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';

/** Writes `data` to `path` atomically (same directory, so the rename cannot cross filesystems). */
export async function replaceFile(path: string, data: string, mode = 0o600): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const file = await open(temporary, 'wx', mode);
  try {
    await file.writeFile(data);
    await file.datasync();
  } catch (error) {
    await file.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await file.close();
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

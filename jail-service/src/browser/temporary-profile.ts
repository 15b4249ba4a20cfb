// Temporary Chromium profiles, named after the owning process so that a jail-service killed
// with SIGKILL (which cannot clean up) has its profile removed by the next one to start.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const prefix = 'clawdie-jail-profile-';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes profiles whose owner process is gone; returns the removed paths. Never throws. */
export async function removeStaleProfiles(directory = tmpdir()): Promise<string[]> {
  const removed: string[] = [];
  const entries = await readdir(directory).catch(() => [] as string[]);
  for (const entry of entries) {
    const owner = new RegExp(`^${prefix}(\\d+)-`).exec(entry)?.[1];
    if (!owner || Number(owner) === process.pid || isAlive(Number(owner))) continue;
    const path = join(directory, entry);
    await rm(path, { recursive: true, force: true }).then(
      () => removed.push(path),
      () => undefined,
    );
  }
  return removed;
}

/** A fresh profile directory owned by this process (after sweeping stale ones). */
export async function createTemporaryProfile(directory = tmpdir()): Promise<string> {
  await removeStaleProfiles(directory);
  return mkdtemp(join(directory, `${prefix}${process.pid}-`));
}

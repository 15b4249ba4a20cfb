// The jail-service's temporary directories (Chromium's profile, the download and upload roots when
// none is configured), named after the owning process: a jail-service killed with SIGKILL cannot
// remove its own, so the next one to start removes every one whose owner is gone. A download or
// upload root holds the user's files; none may outlive its service.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type TemporaryDirKind = 'profile' | 'downloads' | 'uploads';

const OWNED = /^clawdie-jail-(?:profile|downloads|uploads)-(\d+)-/;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the directories of every kind whose owner process is gone; returns them. Never throws. */
export async function removeStaleDirs(directory = tmpdir()): Promise<string[]> {
  const removed: string[] = [];
  const entries = await readdir(directory).catch(() => [] as string[]);
  for (const entry of entries) {
    const owner = OWNED.exec(entry)?.[1];
    if (!owner || Number(owner) === process.pid || isAlive(Number(owner))) continue;
    const path = join(directory, entry);
    await rm(path, { recursive: true, force: true }).then(
      () => removed.push(path),
      () => undefined,
    );
  }
  return removed;
}

/** A fresh directory of `kind` owned by this process (after sweeping stale ones). */
export async function createTemporaryDir(
  kind: TemporaryDirKind,
  directory = tmpdir(),
): Promise<string> {
  await removeStaleDirs(directory);
  return mkdtemp(join(directory, `clawdie-jail-${kind}-${process.pid}-`));
}

// Temporary directories named after the process that owns them (`<prefix><pid>-…`): a process
// killed with SIGKILL cannot remove its own, so the next one to start removes those whose owner is
// gone. Used by the jail-service (its profile, download and upload roots) and the controlplane
// (the local browser's homes).
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** True while `pid` exists, ours or another user's (EPERM). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the entries of `directory` that `owned` names (its first group: the owner's pid) whose
 * owner is gone, never this process's; returns the removed paths. Never throws.
 */
export async function removeDirsOfGoneProcesses(
  directory: string,
  owned: RegExp,
): Promise<string[]> {
  const removed: string[] = [];
  const entries = await readdir(directory).catch(() => [] as string[]);
  for (const entry of entries) {
    const owner = owned.exec(entry)?.[1];
    if (!owner || Number(owner) === process.pid || isProcessAlive(Number(owner))) continue;
    const path = join(directory, entry);
    await rm(path, { recursive: true, force: true }).then(
      () => removed.push(path),
      () => undefined,
    );
  }
  return removed;
}

// The jail-service's temporary directories (Chromium's profile, the download and upload roots when
// none is configured), named after the owning process: a jail-service killed with SIGKILL cannot
// remove its own, so the next one to start removes every one whose owner is gone. A download or
// upload root holds the user's files; none may outlive its service.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeDirsOfGoneProcesses } from '@clawdie/kit/runner';

export type TemporaryDirKind = 'profile' | 'downloads' | 'uploads';

const OWNED = /^clawdie-jail-(?:profile|downloads|uploads)-(\d+)-/;

/** Removes the directories of every kind whose owner process is gone; returns them. Never throws. */
export function removeStaleDirs(directory = tmpdir()): Promise<string[]> {
  return removeDirsOfGoneProcesses(directory, OWNED);
}

/** One sweep per directory and process: the service makes its three at start, at once. */
const sweeps = new Map<string, Promise<string[]>>();

/** A fresh directory of `kind` owned by this process (after this process's sweep of stale ones). */
export async function createTemporaryDir(
  kind: TemporaryDirKind,
  directory = tmpdir(),
): Promise<string> {
  let sweep = sweeps.get(directory);
  if (!sweep) {
    sweep = removeStaleDirs(directory);
    sweeps.set(directory, sweep);
  }
  await sweep;
  return mkdtemp(join(directory, `clawdie-jail-${kind}-${process.pid}-`));
}

// Small steps of the Linux driver: concurrent settling, the profile, phase timing.
import { chown, cp, mkdir, readdir } from 'node:fs/promises';
import { JailDriverError } from '../jail-driver.js';
import type { LinuxCloneNames } from './names.js';

/** Awaits every promise; then throws the first rejection, if any (nothing is left in flight). */
export async function settleAll(promises: readonly Promise<unknown>[]): Promise<void> {
  const results = await Promise.allSettled(promises);
  for (const result of results) if (result.status === 'rejected') throw result.reason;
}

/** The clone's profile: a copy of the template (or empty), owned by the clone's uid. */
export async function makeProfile(
  templateProfile: string | null,
  names: LinuxCloneNames,
): Promise<void> {
  if (templateProfile) await cp(templateProfile, names.profileDir, { recursive: true });
  else await mkdir(names.profileDir);
  await chownTree(names.profileDir, names.uid);
}

export async function chownTree(path: string, uid: number): Promise<void> {
  await chown(path, uid, uid);
  for (const entry of await readdir(path, { withFileTypes: true })) {
    const child = `${path}/${entry.name}`;
    if (entry.isDirectory()) await chownTree(child, uid);
    else await chown(child, uid, uid);
  }
}

/** A clock whose every call reports the time since the previous call (or since it was made). */
export function phaseClock(
  name: string,
  report: ((name: string, phase: string, ms: number) => void) | undefined,
): (phase: string) => void {
  if (!report) return () => {};
  let last = performance.now();
  return (phase) => {
    const now = performance.now();
    report(name, phase, now - last);
    last = now;
  };
}

export function failure(
  code: 'CLONE_CREATE_FAILED' | 'CLONE_START_FAILED',
  name: string,
  error: unknown,
) {
  if (error instanceof JailDriverError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new JailDriverError(code, `${name}: ${message}`, { cloneName: name, cause: error });
}

// What a running process holds: its environment, uid and user namespace from /proc, and every
// process below it (for checking that a secret reached none of a child's descendants).
import { readFileSync, readlinkSync } from 'node:fs';
import { listProcesses, type ProcessInfo } from './chromium-processes.js';

/** The environment of `pid` as NAME=value strings (empty when the process is gone). */
export function environOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** The real uid of `pid`, or null when it is gone. */
export function uidOf(pid: number): number | null {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('Uid:'));
    return line ? Number(line.split(/\s+/)[1]) : null;
  } catch {
    return null;
  }
}

/** The user namespace of `pid` (e.g. `user:[4026531837]`), or null when it is gone. */
export function userNamespaceOf(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/ns/user`);
  } catch {
    return null;
  }
}

/** `rootPid` and every process below it. */
export function processTree(rootPid: number): ProcessInfo[] {
  const all = listProcesses();
  const inTree = new Set([rootPid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const info of all) {
      if (inTree.has(info.ppid) && !inTree.has(info.pid)) {
        inTree.add(info.pid);
        grew = true;
      }
    }
  }
  return all.filter((info) => inTree.has(info.pid));
}

/** Each `pid (command): NAME` whose environment holds one of `secrets` by name or by value. */
export function secretsHeld(
  processes: readonly ProcessInfo[],
  secrets: Readonly<Record<string, string>>,
): string[] {
  const found: string[] = [];
  for (const info of processes) {
    for (const entry of environOf(info.pid)) {
      const name = entry.slice(0, entry.indexOf('='));
      for (const [secretName, value] of Object.entries(secrets)) {
        if (name === secretName || entry.includes(value))
          found.push(`${info.pid} (${info.command}): ${secretName}`);
      }
    }
  }
  return found;
}

/** Each `pid (command): NAME` of a variable whose name starts with `prefix`. */
export function variablesWithPrefix(processes: readonly ProcessInfo[], prefix: string): string[] {
  return processes.flatMap((info) =>
    environOf(info.pid)
      .filter((entry) => entry.startsWith(prefix))
      .map((entry) => `${info.pid} (${info.command}): ${entry.slice(0, entry.indexOf('='))}`),
  );
}

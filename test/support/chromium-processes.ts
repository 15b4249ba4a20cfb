import { readdirSync, readFileSync } from 'node:fs';

/** A process from /proc: pid, parent pid, state letter and command name. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  state: string;
  command: string;
}

function readProcess(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command sits in parentheses and may itself contain spaces or parentheses.
    const close = stat.lastIndexOf(')');
    const command = stat.slice(stat.indexOf('(') + 1, close);
    const [state = '', ppid = '0'] = stat.slice(close + 2).split(' ');
    return { pid, ppid: Number(ppid), state, command };
  } catch {
    return undefined;
  }
}

/** Every process currently visible in /proc. */
export function listProcesses(): ProcessInfo[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProcess(Number(name)))
    .filter((info): info is ProcessInfo => info !== undefined);
}

/** Chromium processes (by command name) among the descendants of `rootPid`. */
export function chromiumDescendants(rootPid: number): ProcessInfo[] {
  const all = listProcesses();
  const found: ProcessInfo[] = [];
  const parents = new Set([rootPid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const info of all) {
      if (parents.has(info.ppid) && !parents.has(info.pid)) {
        parents.add(info.pid);
        found.push(info);
        grew = true;
      }
    }
  }
  return found.filter((info) => /chrom/i.test(info.command));
}

/** True while the pid exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  const info = readProcess(pid);
  return info !== undefined && info.state !== 'Z';
}

/** Polls until none of `pids` is alive; returns the ones still alive at the deadline. */
export async function waitForExit(pids: readonly number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = pids.filter(isAlive);
    if (alive.length === 0 || Date.now() >= deadline) return alive;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The argv of a process (empty when it is gone). */
export function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** The `--user-data-dir` of the Chromium browser process among `processes`, if any. */
export function userDataDirOf(processes: readonly ProcessInfo[]): string | undefined {
  for (const info of processes) {
    const flag = commandLine(info.pid).find((arg) => arg.startsWith('--user-data-dir='));
    if (flag) return flag.slice('--user-data-dir='.length);
  }
  return undefined;
}

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

/** Field 22 of /proc/<pid>/stat (clock ticks since boot): with the pid, who a process is. */
export function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** A process as pid and start time, so a pid reused meanwhile never counts as the same one. */
export interface ProcessMark {
  pid: number;
  start: string;
  command: string;
}

function mark(info: ProcessInfo): ProcessMark | undefined {
  const start = startTimeOf(info.pid);
  return start === undefined ? undefined : { pid: info.pid, start, command: info.command };
}

/**
 * Every process of one run: the live descendants of `rootPid`, every process whose command line
 * mentions `marker` (a unique temporary path; Chromium's crashpad handlers are re-parented to
 * init and only their `--database=` says whose they are), and everyone in a process group one of
 * them leads (Chromium's zygotes and renderers rewrite their command lines).
 */
export function processesOfRun(rootPid: number, marker: string): ProcessMark[] {
  const all = listProcesses().filter((info) => info.state !== 'Z');
  const chosen = new Set<number>(
    all.filter((info) => mentions(info.pid, marker)).map((i) => i.pid),
  );
  let grew = true;
  while (grew) {
    grew = false;
    for (const info of all) {
      if (!chosen.has(info.pid) && (info.ppid === rootPid || chosen.has(info.ppid))) {
        chosen.add(info.pid);
        grew = true;
      }
    }
  }
  // Only groups a chosen process leads (Chromium's own): never the test runner's group.
  const groups = new Set([...chosen].filter((pid) => groupOf(pid) === pid));
  for (const info of all) if (groups.has(groupOf(info.pid))) chosen.add(info.pid);
  return all
    .filter((info) => chosen.has(info.pid) && info.pid !== rootPid)
    .map(mark)
    .filter((found): found is ProcessMark => found !== undefined);
}

/** The marks among `marks` still running as the same process (same pid and start time). */
export function stillRunning(marks: readonly ProcessMark[]): ProcessMark[] {
  return marks.filter((found) => isAlive(found.pid) && startTimeOf(found.pid) === found.start);
}

/** Polls until none of `marks` runs; returns those still running at the deadline. */
export async function waitForMarksGone(
  marks: readonly ProcessMark[],
  timeoutMs: number,
): Promise<ProcessMark[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = stillRunning(marks);
    if (left.length === 0 || Date.now() >= deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** SIGKILLs whichever of `marks` still runs (test clean-up). */
export function killMarks(marks: readonly ProcessMark[]): void {
  for (const found of stillRunning(marks)) {
    try {
      process.kill(found.pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
}

function groupOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return 0;
  }
}

function mentions(pid: number, marker: string): boolean {
  try {
    if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) return true;
    return readFileSync(`/proc/${pid}/environ`, 'utf8').includes(marker);
  } catch {
    return false;
  }
}

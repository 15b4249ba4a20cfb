// A cross-process lock for test files and benches that use real Linux clones. Clone names, uids,
// namespaces and cgroups are host-global and a driver's reconcile destroys every clone it does not
// know, so two such node processes must never run at the same time. Waiters take turns in the
// order they asked (a ticket each in `<path>.queue`): a file's wait, which counts against its
// timeout, is bounded by the files ahead of it, and no waiter can lose every race to later ones.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

export const HOST_LOCK_PATH = '/run/clawdie-hostd-test.lock';

export interface HostLockOptions {
  /** The lock directory; holds a `pid` file naming its holder. */
  path?: string;
  pollMs?: number;
  /** Where the one "waiting" line goes (default stderr). */
  log?: (line: string) => void;
}

interface Holder {
  pid: number;
  /** /proc/<pid>/stat start time, so a reused pid does not count as the holder. */
  startTime: string;
}

/**
 * Waits until this process holds the host lock, then returns `release` (idempotent; also runs on
 * process exit). A lock whose holder is dead (or a zombie, or a reused pid) is stolen. Not
 * re-entrant: a second acquire in the same process waits for the first release.
 */
export async function acquireHostLock(options: HostLockOptions = {}): Promise<() => void> {
  const path = options.path ?? HOST_LOCK_PATH;
  const pollMs = options.pollMs ?? 100;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const me: Holder = { pid: process.pid, startTime: startTimeOf(process.pid) ?? '' };
  let reported: number | null = -1;
  const asked = performance.now();
  removeDeadStaging(path);
  const ticket = takeTicket(path, me);
  while (!(firstInQueue(path, ticket.file) && tryCreate(path, me))) {
    const holder = readHolder(path);
    if (holder && !isAlive(holder)) {
      stealIfStale(path, holder);
      continue;
    }
    if ((holder?.pid ?? null) !== reported && (holder || existsSync(path))) {
      reported = holder?.pid ?? null;
      log(
        holder
          ? `waiting for the host lock held by pid ${holder.pid} (${path})`
          : `waiting for the host lock ${path} (it names no holder pid)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  ticket.drop();
  process.off('exit', ticket.drop);
  if (path === HOST_LOCK_PATH) noteHostLockWait(performance.now() - asked);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    const holder = readHolder(path);
    if (holder?.pid === me.pid && holder.startTime === me.startTime) removeAside(path);
  };
  process.on('exit', release);
  return release;
}

/**
 * Adds to the milliseconds this process has waited for the lock, where the suite's file timer
 * (test/support/file-timer.mjs) reads them: a file's record then tells its own time from its
 * wait behind another file that uses real clones.
 */
function noteHostLockWait(ms: number): void {
  const key = Symbol.for('clawdie.test.hostLockWaitMs');
  const record = globalThis as unknown as Record<symbol, number | undefined>;
  record[key] = (record[key] ?? 0) + ms;
}

let tickets = 0;

/**
 * Removes what a waiter killed mid-step left beside the lock: a lock directory it was preparing
 * (`<lock>.new-<pid>-…`) or a ticket it was writing (`<lock>.ticket-<time>-<pid>-…`).
 */
function removeDeadStaging(path: string): void {
  const dir = dirname(path);
  const base = basename(path);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = /^\.new-(\d+)-|^\.ticket-\d+-(\d+)-/.exec(name.slice(base.length));
    if (!name.startsWith(base) || !pid) continue;
    if (startTimeOf(Number(pid[1] ?? pid[2])) === null)
      rmSync(join(dir, name), { recursive: true, force: true });
  }
}

/**
 * This waiter's place in the queue: a file named by the time it asked (then pid and a counter, for
 * ties and several waiters in one process), holding its pid and start time.
 */
function takeTicket(path: string, me: Holder): { file: string; drop: () => void } {
  const queue = `${path}.queue`;
  mkdirSync(queue, { recursive: true });
  tickets += 1;
  const name = `${String(Date.now()).padStart(15, '0')}-${String(me.pid).padStart(10, '0')}-${String(tickets).padStart(6, '0')}`;
  const file = `${queue}/${name}`;
  // Written beside the queue and renamed in, so a reader never finds a ticket without its pid.
  const staging = `${path}.ticket-${name}`;
  writeFileSync(staging, `${me.pid}\n${me.startTime}\n`);
  renameSync(staging, file);
  // Removed when this waiter gets the lock; if it exits first, on its exit or by the next waiter.
  const drop = () => rmSync(file, { force: true });
  process.once('exit', drop);
  return { file, drop };
}

/** Whether `ticket` is the oldest of the live waiters' tickets; a dead waiter's is removed. */
function firstInQueue(path: string, ticket: string): boolean {
  const queue = `${path}.queue`;
  let names: string[];
  try {
    names = readdirSync(queue).sort();
  } catch {
    return true;
  }
  const mine = ticket.slice(queue.length + 1);
  for (const name of names) {
    if (name === mine) return true;
    const holder = readHolder(`${queue}/${name}`, '');
    if (!holder) continue; // taken meanwhile: its waiter holds the lock or gave up
    if (isAlive(holder)) return false;
    rmSync(`${queue}/${name}`, { force: true });
  }
  return true;
}

/** Atomic: a prepared directory (pid file inside) is renamed onto the lock path if it is free. */
function tryCreate(path: string, me: Holder): boolean {
  const staging = `${path}.new-${me.pid}-${Math.random().toString(36).slice(2)}`;
  mkdirSync(staging);
  writeFileSync(`${staging}/pid`, `${me.pid}\n${me.startTime}\n`);
  try {
    // rename(2) onto an existing non-empty directory fails (ENOTEMPTY/EEXIST): the lock is held.
    renameSync(staging, path);
    return true;
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return false;
    throw error;
  }
}

function readHolder(path: string, file = '/pid'): Holder | null {
  try {
    const [pid = '', startTime = ''] = readFileSync(`${path}${file}`, 'utf8').split('\n');
    return Number(pid) > 0 ? { pid: Number(pid), startTime } : null;
  } catch {
    return null; // Released meanwhile.
  }
}

/**
 * Steals under a second lock (a `.steal` directory), re-reading the holder inside it, so two
 * waiters never both steal and one never removes a lock the other has just taken.
 */
function stealIfStale(path: string, seen: Holder): void {
  const mutex = `${path}.steal`;
  try {
    mkdirSync(mutex);
  } catch {
    // Another waiter is stealing; a mutex left by a crashed stealer expires after 10 s.
    try {
      if (Date.now() - statSync(mutex).mtimeMs > 10_000) rmSync(mutex, { recursive: true });
    } catch {}
    return;
  }
  try {
    const holder = readHolder(path);
    if (holder?.pid === seen.pid && holder.startTime === seen.startTime && !isAlive(holder)) {
      removeAside(path);
    }
  } finally {
    rmSync(mutex, { recursive: true, force: true });
  }
}

/** Moves the lock directory away atomically, then deletes it. */
function removeAside(path: string): void {
  const aside = `${path}.old-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  rmSync(aside, { recursive: true, force: true });
}

function isAlive(holder: Holder): boolean {
  const startTime = startTimeOf(holder.pid);
  return startTime !== null && (holder.startTime === '' || startTime === holder.startTime);
}

/** The process's start time from /proc, or null when it is gone or a zombie. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is the first, starttime the 20th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return null;
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

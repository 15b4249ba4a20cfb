// What an owner lock file says about its holder, and whether that holder still lives. Liveness is
// `kill(pid, 0)` (Linux and FreeBSD); where /proc has the process's start time (Linux), a pid
// reused by another process does not count as the holder.
import { readFileSync } from 'node:fs';

export interface OwnerRecord {
  pid: number;
  /** /proc/<pid>/stat start time ('' where the host has no /proc). */
  startTime: string;
  namespace: string;
  slot: number;
  since: string;
}

/** The record in `path`, or null when it is gone or unreadable (a torn or foreign file). */
export function readOwnerRecord(path: string): OwnerRecord | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<OwnerRecord>;
    if (!Number.isInteger(parsed.pid) || (parsed.pid ?? 0) <= 0) return null;
    return {
      pid: parsed.pid as number,
      startTime: typeof parsed.startTime === 'string' ? parsed.startTime : '',
      namespace: typeof parsed.namespace === 'string' ? parsed.namespace : '',
      slot: typeof parsed.slot === 'number' ? parsed.slot : -1,
      since: typeof parsed.since === 'string' ? parsed.since : '',
    };
  } catch {
    return null;
  }
}

/** True while the recorded process exists, is not a zombie and (where known) started when recorded. */
export function ownerAlive(record: Pick<OwnerRecord, 'pid' | 'startTime'>): boolean {
  try {
    process.kill(record.pid, 0);
  } catch (error) {
    // EPERM: it exists, as another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = processStartTime(record.pid);
  if (now === null) return !procAvailable();
  return record.startTime === '' || now === record.startTime;
}

/**
 * The process's start time from /proc/<pid>/stat (field 22), or null when /proc has no such
 * process or it is a zombie.
 */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return null;
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

function procAvailable(): boolean {
  return processStartTime(process.pid) !== null;
}

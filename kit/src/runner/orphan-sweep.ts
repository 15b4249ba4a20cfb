// The start-up sweep: a process that records its children (ChildRegistry.recordIn) and dies by
// SIGKILL cannot stop them; the next process to start on the same directory does. Only children
// whose owner is gone and whose identity (pid AND start time) still matches are signalled: a pid
// the kernel has since given to another process is left alone.
import { rmSync } from 'node:fs';
import { sleep } from '../timing/sleep.js';
import { type RecordedChild, readChildRecords } from './child-record.js';
import { type IdentityOptions, isSameProcess } from './process-identity.js';

export interface SweepOptions {
  /** How long a child signalled with its own (gentler) signal may take before SIGKILL; default 5 s. */
  graceMs?: number;
  identity?: IdentityOptions;
}

export interface SweepResult {
  /** Children of gone owners that were still running and were stopped. */
  stopped: RecordedChild[];
  /** Recorded children whose pid is gone or now names another process: left alone. */
  gone: RecordedChild[];
  /** Record files of owners still running (another instance on the directory; this process). */
  liveOwners: number;
}

/**
 * Stops the recorded children of every gone owner in `directory` and removes their files.
 * Each child gets its recorded signal (to its group when it leads one), and SIGKILL after
 * `graceMs` if it still runs. Never throws; unreadable record files are removed.
 */
export async function sweepRecordedChildren(
  directory: string,
  options: SweepOptions = {},
): Promise<SweepResult> {
  const result: SweepResult = { stopped: [], gone: [], liveOwners: 0 };
  for (const { path, record } of readChildRecords(directory)) {
    if (record && isSameProcess(record.owner, options.identity)) {
      result.liveOwners += 1;
      continue;
    }
    for (const child of record?.children ?? []) {
      if (isSameProcess(child, options.identity) && signal(child, child.signal)) {
        result.stopped.push(child);
      } else {
        result.gone.push(child);
      }
    }
    rmSync(path, { force: true });
  }
  await waitThenKill(result.stopped, options);
  return result;
}

async function waitThenKill(children: RecordedChild[], options: SweepOptions): Promise<void> {
  const gentle = children.filter((child) => child.signal !== 'SIGKILL');
  const deadline = Date.now() + (options.graceMs ?? 5000);
  const running = () => gentle.filter((child) => isSameProcess(child, options.identity));
  while (running().length > 0 && Date.now() < deadline) await sleep(50);
  for (const child of running()) signal(child, 'SIGKILL');
}

function signal(child: RecordedChild, name: NodeJS.Signals): boolean {
  try {
    process.kill(child.group ? -child.pid : child.pid, name);
    return true;
  } catch {
    try {
      if (child.group) process.kill(child.pid, name);
      return child.group;
    } catch {
      return false;
    }
  }
}

// Processes of clones, found by their per-clone uid in /proc (zombies excluded: they hold nothing
// but a pid and are reaped by their parent), and killed by pid.
import { readdir, readFile } from 'node:fs/promises';
import { sleep } from '@clawdie/kit/timing';

/** Live (non-zombie) pids per clone index, for uids in uidBase+1 … uidBase+999. */
export async function processesByIndex(uidBase: number): Promise<Map<number, number[]>> {
  const found = new Map<number, number[]>();
  const entries = await readdir('/proc').catch(() => [] as string[]);
  await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry))
      .map(async (entry) => {
        const status = await readFile(`/proc/${entry}/status`, 'utf8').catch(() => '');
        const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1] ?? -1);
        const state = /^State:\s+(\S)/m.exec(status)?.[1];
        const index = uid - uidBase;
        if (index < 1 || index > 999 || state === 'Z' || state === 'X') return;
        const pids = found.get(index) ?? [];
        pids.push(Number(entry));
        found.set(index, pids);
      }),
  );
  return found;
}

/** SIGKILLs the processes of one clone's uid until none is left or the deadline passes. */
export async function killUidProcesses(
  uidBase: number,
  index: number,
  deadlineMs = 3000,
): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const pids = (await processesByIndex(uidBase)).get(index) ?? [];
    if (pids.length === 0 || Date.now() > deadline) return;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await sleep(20);
  }
}

/** True while a process with this pid exists (and is not a zombie). */
export async function isAlive(pid: number): Promise<boolean> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const state = /^State:\s+(\S)/m.exec(status)?.[1];
  return status !== '' && state !== 'Z' && state !== 'X';
}

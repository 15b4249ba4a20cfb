import { readdirSync, readFileSync } from 'node:fs';

interface ProcStat {
  pid: number;
  ppid: number;
  state: string;
}

function readStat(pid: number): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (comm) may hold spaces and parentheses: split after its last ')'.
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { pid, state: rest[0] ?? '?', ppid: Number(rest[1]) };
  } catch {
    return null;
  }
}

/** Every live descendant of `root` (Linux /proc), excluding zombies. */
export function descendants(root: number): number[] {
  const stats = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((stat): stat is ProcStat => stat !== null);
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const stat of stats) {
      if (stat.ppid === parent && stat.state !== 'Z') {
        found.push(stat.pid);
        queue.push(stat.pid);
      }
    }
  }
  return found;
}

/** The pids among `pids` that still run (not gone, not zombies). */
export function alive(pids: readonly number[]): number[] {
  return pids.filter((pid) => {
    const stat = readStat(pid);
    return stat !== null && stat.state !== 'Z';
  });
}

// Samples /proc while a test runs for xdotool/xwd processes: who started them (parent pid) and
// as which uid. Shows where a desktop task's X tools really run.
import { readdirSync, readFileSync } from 'node:fs';

export interface XToolSighting {
  pid: number;
  command: string;
  parentPid: number;
  uid: number;
}

const X_TOOLS = new Set(['xdotool', 'xwd']);

function sample(seen: Map<number, XToolSighting>): void {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || seen.has(Number(entry))) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!X_TOOLS.has(command)) continue;
      const parentPid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
      seen.set(Number(entry), { pid: Number(entry), command, parentPid, uid });
    } catch {
      // Gone between readdir and read.
    }
  }
}

/** Starts sampling every `intervalMs`; `stop()` returns every X tool process seen. */
export function watchXTools(intervalMs = 5): { stop(): XToolSighting[] } {
  const seen = new Map<number, XToolSighting>();
  const timer = setInterval(() => sample(seen), intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return [...seen.values()];
    },
  };
}

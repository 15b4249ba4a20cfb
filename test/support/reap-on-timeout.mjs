// Preloaded (`--import`) into every test process by run-tests.sh. node:test ends a test file that
// outlives its timeout with SIGTERM, and the file's `after` hooks never run: the servers, CLIs,
// jail-services and browsers it started would stay behind (a replica-death run left two
// controlplanes with their jail-services and Chromium running for an hour). On SIGTERM this kills
// every process descended from the test file's process, says how many, and exits 143 (SIGTERM's
// status), so its 'exit' handlers (the file timer's record) still run. Linux /proc; elsewhere it
// only exits.
import { readdirSync, readFileSync } from 'node:fs';

const file = process.argv[1];
if (/\.test\.[jt]s$/.test(file ?? '') && process.env.NODE_TEST_CONTEXT) {
  process.once('SIGTERM', () => {
    const killed = killDescendants(process.pid);
    if (killed.length > 0)
      process.stderr.write(
        `# ${file}: ended by its timeout; killed ${killed.length} process(es) it had started (pids ${killed.join(' ')})\n`,
      );
    process.exit(143);
  });
}

/**
 * SIGKILLs every descendant of `root` (children first found, all before any is reaped). The same
 * walk as test/support/process-tree.ts's `descendants`, written again here on purpose: a preload
 * runs under plain node before any TypeScript loader (compiled runs have none), so it cannot import
 * that file.
 */
export function killDescendants(root) {
  const children = new Map();
  let pids;
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  for (const pid of pids) {
    const parent = parentOf(pid);
    if (parent === null) continue;
    const list = children.get(parent) ?? [];
    list.push(Number(pid));
    children.set(parent, list);
  }
  const found = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift();
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  for (const pid of found) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** The parent pid from /proc/<pid>/stat (after the command name, which may hold spaces). */
function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

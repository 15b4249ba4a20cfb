// Per-clone cgroups on cgroup v2, or on a v1 "hybrid" host (v1 memory/pids/cpu controllers plus the
// unified hierarchy for cgroup.kill and cgroup.events). Plain file writes; no commands.
import { type FSWatcher, watch } from 'node:fs';
import { access, mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sleep } from '@clawdie/kit/timing';
import type { CloneLimits } from '../jail-driver.js';

export type CgroupMode = 'v2' | 'hybrid' | 'none';

export interface CgroupLayout {
  mode: CgroupMode;
  /** The directory holding `cgroup.kill` / `cgroup.events` for each clone (v2 or unified). */
  killParent: string | null;
  /** Every parent directory under which a clone gets a leaf (including killParent). */
  parents: readonly string[];
}

const CPU_PERIOD_US = 100_000;

/** Finds and prepares the cgroup parents; `none` (and why) when they cannot be written. */
export async function prepareCgroups(
  root: string,
  group: string,
): Promise<{ layout: CgroupLayout; problem: string | null }> {
  try {
    if (await exists(join(root, 'cgroup.controllers'))) {
      const parent = join(root, group);
      await mkdir(parent, { recursive: true });
      await writeFile(join(root, 'cgroup.subtree_control'), '+memory +pids +cpu');
      await writeFile(join(parent, 'cgroup.subtree_control'), '+memory +pids +cpu');
      return { layout: { mode: 'v2', killParent: parent, parents: [parent] }, problem: null };
    }
    const unified = join(root, 'unified');
    if (await exists(join(unified, 'cgroup.controllers'))) {
      const parents = ['unified', 'memory', 'pids', 'cpu'].map((part) => join(root, part, group));
      for (const parent of parents) await mkdir(parent, { recursive: true });
      return { layout: { mode: 'hybrid', killParent: parents[0] ?? null, parents }, problem: null };
    }
    return { layout: none(), problem: `no cgroup v2 or hybrid hierarchy under ${root}` };
  } catch (error) {
    return { layout: none(), problem: `cgroups not writable: ${(error as Error).message}` };
  }
}

function none(): CgroupLayout {
  return { mode: 'none', killParent: null, parents: [] };
}

export function leafDirs(layout: CgroupLayout, name: string): string[] {
  return layout.parents.map((parent) => join(parent, name));
}

/** Creates the clone's cgroups and writes its limits, every leaf concurrently. */
export async function createCgroups(
  layout: CgroupLayout,
  name: string,
  limits: CloneLimits,
): Promise<void> {
  const bytes = String(limits.memoryMb * 1024 * 1024);
  const quota = String(Math.round((CPU_PERIOD_US * limits.cpuPercent) / 100));
  const results = await Promise.allSettled(
    leafDirs(layout, name).map(async (dir) => {
      await mkdir(dir);
      if (layout.mode === 'v2') {
        await Promise.all([
          writeFile(join(dir, 'memory.max'), bytes),
          writeFile(join(dir, 'memory.swap.max'), '0').catch(() => {}),
          writeFile(join(dir, 'pids.max'), String(limits.pids)),
          writeFile(join(dir, 'cpu.max'), `${quota} ${CPU_PERIOD_US}`),
        ]);
      } else if (dir.includes('/memory/')) {
        await writeFile(join(dir, 'memory.limit_in_bytes'), bytes);
      } else if (dir.includes('/pids/')) {
        await writeFile(join(dir, 'pids.max'), String(limits.pids));
      } else if (dir.includes('/cpu/')) {
        await writeFile(join(dir, 'cpu.cfs_period_us'), String(CPU_PERIOD_US));
        await writeFile(join(dir, 'cpu.cfs_quota_us'), quota);
      }
    }),
  );
  for (const result of results) if (result.status === 'rejected') throw result.reason;
}

/** Relative CPU weights (v2 cpu.weight, v1 cpu.shares): a background clone gets 1/10. */
const CPU_WEIGHT = {
  v2: { background: '10', normal: '100' },
  v1: { background: '102', normal: '1024' },
};

/** Sets the clone's relative CPU weight; its cpu.max quota is unchanged. */
export async function setCpuWeight(
  layout: CgroupLayout,
  name: string,
  priority: 'background' | 'normal',
): Promise<void> {
  for (const dir of leafDirs(layout, name)) {
    if (layout.mode === 'v2') await writeFile(join(dir, 'cpu.weight'), CPU_WEIGHT.v2[priority]);
    else if (dir.includes('/cpu/')) {
      await writeFile(join(dir, 'cpu.shares'), CPU_WEIGHT.v1[priority]);
    }
  }
}

/**
 * CPU time the clone's processes have used (`usage_usec` of the unified hierarchy's `cpu.stat`,
 * kept by every v2 cgroup with or without the cpu controller), in ms; null once it is gone.
 */
export async function cgroupCpuTimeMs(layout: CgroupLayout, name: string): Promise<number | null> {
  if (!layout.killParent) return null;
  const stat = await readFile(join(layout.killParent, name, 'cpu.stat'), 'utf8').catch(() => '');
  const usage = /^usage_usec (\d+)$/m.exec(stat)?.[1];
  return usage === undefined ? null : Number(usage) / 1000;
}

/** The `cgroup.procs` files a process writes its pid into to join the clone. */
export function procsFiles(layout: CgroupLayout, name: string): string[] {
  return leafDirs(layout, name).map((dir) => join(dir, 'cgroup.procs'));
}

/** Names of the clone leaves that exist under any parent. */
export async function listCgroupLeaves(layout: CgroupLayout): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const parent of layout.parents) {
    const entries = await readdir(parent, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const dirs = found.get(entry.name) ?? [];
      dirs.push(join(parent, entry.name));
      found.set(entry.name, dirs);
    }
  }
  return found;
}

/**
 * Sends SIGKILL to every process in the clone's cgroup through `cgroup.kill` (v2): the kernel also
 * kills what forks meanwhile, so once this returns true no process of the clone runs its own code
 * again (their exit may still be under way). False where there is no `cgroup.kill` or no leaf.
 */
export async function killCgroup(layout: CgroupLayout, name: string): Promise<boolean> {
  if (!layout.killParent) return false;
  return writeFile(join(layout.killParent, name, 'cgroup.kill'), '1').then(
    () => true,
    () => false,
  );
}

/**
 * Kills everything in the clone's cgroup, waits for the kernel's `populated 0`, then removes the
 * directories with retries: an empty cgroup.procs does not yet mean removable (§3.4).
 */
export async function destroyCgroups(
  layout: CgroupLayout,
  name: string,
  deadlineMs = 5000,
): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  if (layout.killParent) {
    const leaf = join(layout.killParent, name);
    if (await exists(leaf)) {
      await writeFile(join(leaf, 'cgroup.kill'), '1').catch(() => {});
      await untilUnpopulated(join(leaf, 'cgroup.events'), deadline);
    }
  }
  for (const dir of leafDirs(layout, name)) {
    while (await exists(dir)) {
      try {
        await rmdir(dir);
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await sleep(20);
      }
    }
  }
}

/**
 * Resolves once `cgroup.events` says `populated 0`, or at the deadline. The kernel notifies each
 * change of the file (inotify, through fs.watch); a slow poll covers a missed event.
 */
async function untilUnpopulated(events: string, deadline: number): Promise<void> {
  const populated = async () => /populated 1/.test(await readFile(events, 'utf8').catch(() => ''));
  if (!(await populated())) return;
  await new Promise<void>((resolve) => {
    let watcher: FSWatcher | null = null;
    const done = () => {
      clearTimeout(timer);
      clearInterval(poll);
      watcher?.close();
      resolve();
    };
    const check = () => void populated().then((still) => still || done());
    const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
    const poll = setInterval(check, 50);
    try {
      watcher = watch(events, check);
      watcher.on('error', () => undefined);
    } catch {
      // No inotify here: the poll alone.
    }
    check();
  });
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

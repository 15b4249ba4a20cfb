// What the clone benchmark measures on a running clone: its jail-service (a screenshot, actions,
// an agent-like screenshot+click step loop) and its resources (cgroup CPU and memory, PSS).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { Clone } from '../hostd/src/api/schema.js';
import { TEST_CGROUP, testNames } from '../test/hostd/support/linux-harness.js';

export async function screenshot(clone: Clone): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${clone.service.url}/screenshot`, {
    headers: { authorization: `Bearer ${clone.service.token}` },
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`screenshot: HTTP ${response.status}`);
  return performance.now() - started;
}

/** A number from the first readable of a clone's cgroup files (`%` = group/clone; v1 or v2). */
function cgroupNumber(clone: Clone, files: string[], pattern = /^(\d+)/m): number {
  for (const file of files) {
    try {
      const path = `/sys/fs/cgroup/${file.replace('%', `${TEST_CGROUP}/${clone.name}`)}`;
      return Number(pattern.exec(readFileSync(path, 'utf8'))?.[1]);
    } catch {}
  }
  return Number.NaN;
}
export const memoryMb = (clone: Clone) =>
  cgroupNumber(clone, ['memory/%/memory.usage_in_bytes', '%/memory.current']) / 2 ** 20;
export const cpuMs = (clone: Clone) =>
  cgroupNumber(clone, ['unified/%/cpu.stat', '%/cpu.stat'], /^usage_usec (\d+)/m) / 1000;

/** One agent-like step: a screenshot, then a click (on the demo shop's page body). */
async function step(clone: Clone): Promise<number> {
  const started = performance.now();
  await screenshot(clone);
  await actions(clone, [{ type: 'click', x: 640, y: 700 }]);
  return performance.now() - started;
}

export async function actions(clone: Clone, list: unknown[]): Promise<void> {
  const response = await fetch(`${clone.service.url}/actions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${clone.service.token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ actions: list }),
  });
  const body = (await response.json()) as { results?: { status: string }[] };
  if (!response.ok || body.results?.some((result) => result.status !== 'ok')) {
    throw new Error(`actions: HTTP ${response.status} ${JSON.stringify(body)}`);
  }
}

/** What the model call would take between two steps of a real task (±50 % jitter). */
function think(base: number): Promise<void> {
  if (base <= 0) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, base * (0.5 + Math.random())));
}

/** Every clone runs its step loop at once (two uncounted warm-up steps each); CPU per step. */
export async function stepTimes(
  clones: Clone[],
  options: { steps: number; thinkMs: number },
): Promise<{ times: number[]; cpuPerStep: number; cpuPerStepByKind: Record<string, number> }> {
  const times: number[] = [];
  const cpuBefore = clones.map(cpuMs);
  const kindsBefore = clones.map(cpuMsByKind);
  await Promise.all(
    clones.map(async (clone) => {
      for (let i = 0; i < 2; i += 1) await step(clone);
      for (let i = 0; i < options.steps; i += 1) {
        await think(options.thinkMs);
        times.push(await step(clone));
      }
    }),
  );
  const cpu = clones.reduce((sum, clone, i) => sum + cpuMs(clone) - (cpuBefore[i] ?? 0), 0);
  const stepCount = clones.length * (options.steps + 2);
  const cpuPerStepByKind: Record<string, number> = {};
  clones.forEach((clone, i) => {
    for (const [kind, ms] of Object.entries(cpuMsByKind(clone))) {
      if (kind.startsWith('#')) continue;
      const before = kindsBefore[i]?.[kind] ?? 0;
      cpuPerStepByKind[kind] = (cpuPerStepByKind[kind] ?? 0) + (ms - before) / stepCount;
    }
  });
  return { times, cpuPerStep: cpu / stepCount, cpuPerStepByKind };
}

/** Proportional set size of all of a clone's processes (its uid): shared pages split fairly. */
export function pssMb(clone: Clone): number {
  const kinds = Object.entries(pssByKind(clone)).filter(([kind]) => !kind.startsWith('#'));
  return kinds.reduce((sum, [, mb]) => sum + mb, 0);
}

/**
 * PSS of a clone's processes by kind: `node` (the jail-service), `browser`, and Chromium's
 * children by their `--type=` (renderer, gpu-process, utility, zygote…), in MiB; `#kind`: how
 * many processes of that kind.
 */
export function pssByKind(clone: Clone): Record<string, number> {
  return byKind(clone, (pid) => {
    const pss = /^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1];
    return Number(pss) / 1024;
  });
}

/** CPU time (user + system, ms) of a clone's live processes by kind, as pssByKind. */
export function cpuMsByKind(clone: Clone): Record<string, number> {
  return byKind(clone, (pid) => {
    // Fields after the parenthesised name: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  });
}
const TICKS_PER_SECOND = 100;

function byKind(clone: Clone, measure: (pid: string) => number): Record<string, number> {
  const kinds: Record<string, number> = {};
  // The clone's uid within the test namespace's slot (not UID_BASE + index).
  const { uid } = testNames(clone.index);
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (statSync(`/proc/${pid}`).uid !== uid) continue;
      const value = measure(pid);
      // Chromium's children rewrite their title: one string, arguments joined by spaces.
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
      const kind = processKind(argv);
      kinds[kind] = (kinds[kind] ?? 0) + value;
      kinds[`#${kind}`] = (kinds[`#${kind}`] ?? 0) + 1;
    } catch {}
  }
  return kinds;
}

function processKind(argv: string[]): string {
  const type = argv.find((arg) => arg.startsWith('--type='))?.slice('--type='.length);
  if (type === 'utility') {
    const sub = argv
      .find((arg) => arg.startsWith('--utility-sub-type='))
      ?.split('.')
      .at(-1);
    return `utility:${sub ?? '?'}`;
  }
  if (type) return type;
  const name = argv[0]?.split('/').at(-1) ?? '?';
  return name === 'chromium' || name === 'chrome' ? 'browser' : name;
}

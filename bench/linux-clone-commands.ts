// Linux's side of the per-clone command count: the real LinuxDriver (root: real namespaces,
// cgroups, bubblewrap, Chromium) with its CommandRunner and ProcessLauncher counted, over N
// create → start → destroy → reconcile cycles. Everything else the Linux driver does is file
// system work in-process (cgroup files, state directory, /proc), not a command.
import { basename } from 'node:path';
import type { CommandRunner } from '@clawdie/kit/runner';
import {
  ChildRegistry,
  ExecFileRunner,
  type ProcessLauncher,
  SpawnLauncher,
} from '@clawdie/kit/runner';
import { acquireHostLock } from '../test/hostd/support/host-lock.js';
import { createTestDriver, linuxDriverMissing } from '../test/hostd/support/linux-harness.js';
import { PHASES, type Phase } from './freebsd-plan-steps.js';

export interface LinuxFigures {
  cycles: number;
  /** Per phase: commands run (through the runner) plus processes launched, per clone (median). */
  commands: Record<Phase, number>;
  /** Per phase: the programs of the first cycle, as argv[0] basenames. */
  programs: Record<Phase, string[]>;
  /** Per phase: median wall time, ms. */
  ms: Record<Phase, number>;
  /** Commands of the driver's one-off host probe (first use of a driver). */
  probe: number;
  /** A restarted hostd's reconcile of one running clone it does not know. */
  orphan: number;
}

const spec = (cycle: number) => ({
  taskId: `bench-${cycle}`,
  allowedDomains: [],
  limits: { memoryMb: 2048, pids: 1024, cpuPercent: 200 },
  display: false,
});

const median = (list: number[]) =>
  [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;

/** Null figures with the reason when real Linux clones cannot be made here. */
export async function measureLinux(
  cycles: number,
): Promise<{ figures: LinuxFigures } | { missing: string }> {
  if (cycles <= 0) return { missing: 'not measured (--linux-cycles=0)' };
  const missing = linuxDriverMissing();
  if (missing) return { missing: `not measured: needs the real Linux driver (${missing})` };
  let programs: string[] = [];
  const real = new ExecFileRunner();
  const runner: CommandRunner = {
    run: (argv, options) => {
      programs.push(argv[0] ?? '?');
      return real.run(argv, options);
    },
  };
  const spawner = new SpawnLauncher(new ChildRegistry());
  const launcher: ProcessLauncher = {
    launch: (options) => {
      // One process whose exec chain runs the sandbox (sh → nsenter → setpriv → bwrap → …).
      const chain = options.argv.filter((arg) => /^\/(usr\/)?s?bin\/[\w.-]+$/.test(arg));
      programs.push(`${[...new Set(chain.map((path) => basename(path)))].join('→')} (one launch)`);
      return spawner.launch(options);
    },
  };
  const release = await acquireHostLock();
  try {
    const driver = createTestDriver({ runner, launcher });
    await driver.probe();
    const probe = programs.length;
    await driver.reconcile(() => false);
    const counts = new Map<Phase, number[]>();
    const times = new Map<Phase, number[]>();
    const first = new Map<Phase, string[]>();
    const phase = async (name: Phase, operation: () => Promise<unknown>) => {
      programs = [];
      const started = performance.now();
      await operation();
      times.set(name, [...(times.get(name) ?? []), performance.now() - started]);
      counts.set(name, [...(counts.get(name) ?? []), programs.length]);
      if (!first.has(name))
        first.set(
          name,
          programs.map((program) => basename(program)),
        );
    };
    for (let cycle = 0; cycle < cycles; cycle += 1) {
      let name = '';
      await phase('create', async () => {
        name = (await driver.create(950 + (cycle % 10), spec(cycle))).name;
      });
      await phase('start', () => driver.start(name, { egressProxyUrl: null }));
      await phase('destroy', async () => {
        const { leftovers } = await driver.destroy(name);
        if (leftovers.length > 0) throw new Error(`${name} left ${leftovers.join(', ')}`);
      });
      await phase('reconcile', () => driver.reconcile(() => false));
    }
    // A restarted hostd (a fresh driver) reconciles one running clone it did not start.
    const orphan = (await driver.create(960, { ...spec(cycles), taskId: 'orphan' })).name;
    await driver.start(orphan, { egressProxyUrl: null });
    const restarted = createTestDriver({ runner, launcher });
    await restarted.probe();
    programs = [];
    const { destroyed, leftovers } = await restarted.reconcile(() => false);
    if (destroyed.length !== 1 || Object.keys(leftovers).length > 0) {
      throw new Error(`orphan not reconciled: ${JSON.stringify({ destroyed, leftovers })}`);
    }
    const orphanCommands = programs.length;
    const byPhase = <T>(value: (phase: Phase) => T) =>
      Object.fromEntries(PHASES.map((p) => [p, value(p)])) as Record<Phase, T>;
    return {
      figures: {
        cycles,
        probe,
        orphan: orphanCommands,
        commands: byPhase((p) => median(counts.get(p) ?? [])),
        programs: byPhase((p) => first.get(p) ?? []),
        ms: byPhase((p) => median(times.get(p) ?? [])),
      },
    };
  } finally {
    release();
  }
}

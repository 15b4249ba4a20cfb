// The real FreeBsdDriver over the in-memory FreeBSD host (test/hostd/freebsd/fake-freebsd.ts, which
// rejects any argv the real tools' grammar would reject): N create → start → destroy → reconcile
// cycles, every operation recorded per phase and step with the driver's in-process time before it.
// The fake's jail "starts" the service in its health model; no process runs.

import type { CommandRunner } from '@clawdie/kit/runner';
import { loadConfig } from '../hostd/src/config.js';
import { FreeBsdDriver } from '../hostd/src/drivers/freebsd/freebsd-driver.js';
import type { HealthCheck } from '../hostd/src/drivers/freebsd/health-check.js';
import type { HostFiles } from '../hostd/src/drivers/freebsd/host-files.js';
import type { CloneSpec } from '../hostd/src/drivers/jail-driver.js';
import { freeBsdLayout } from '../hostd/src/drivers/select-driver.js';
import { FakeFreeBSD } from '../test/hostd/freebsd/fake-freebsd.js';
import { assignSteps, type Budget, type Phase, PLAN_STEPS, stepKey } from './freebsd-plan-steps.js';

/** The FreeBsdDriver's default per-command timeout; hostd does not override it. */
const COMMAND_TIMEOUT_MS = 60_000;

export type OpKind = 'command' | 'file' | 'http';

interface Op {
  line: string;
  kind: OpKind;
  /** In-process time since the previous operation of the phase (or the phase's start). */
  ms: number;
}

export interface StepFigures {
  key: string;
  /** Operations of the first cycle (clone names of that cycle). */
  lines: { line: string; kind: OpKind }[];
  /** Per cycle: operations of each kind and the step's in-process time. */
  counts: Record<OpKind, number[]>;
  ms: number[];
}

export interface FreeBsdFigures {
  cycles: number;
  budget: Budget;
  steps: StepFigures[];
  /** A restarted hostd's reconcile of one running clone it does not know (adopt check + destroy). */
  orphan: Record<OpKind, number>;
}

/** Wraps the fake's ports so each operation that happened is recorded with its time. */
function instrument(fake: FakeFreeBSD, record: (line: string, kind: OpKind) => void) {
  const planned = async <T>(operation: () => Promise<T>): Promise<T> => {
    const before = fake.plan.length;
    const result = await operation();
    for (const line of fake.plan.slice(before)) record(line, 'file');
    return result;
  };
  const runner: CommandRunner = {
    run: async (argv, options) => {
      const result = await fake.runner.run(argv, options);
      record(argv.join(' '), 'command');
      return result;
    },
  };
  const files: HostFiles = {
    ...fake.files,
    write: (path, content, options) => planned(() => fake.files.write(path, content, options)),
    remove: (path) => planned(() => fake.files.remove(path)),
    rename: (from, to) => planned(() => fake.files.rename(from, to)),
  };
  const healthCheck: HealthCheck = async (url, token, signal) => {
    const healthy = await fake.healthCheck(url, token, signal);
    record(`[http] GET ${url}/health → ${healthy ? 'healthy' : 'not yet'}`, 'http');
    return healthy;
  };
  return { runner, files, healthCheck };
}

export async function runFreeBsdFake(cycles: number, display = false): Promise<FreeBsdFigures> {
  // hostd's own settings for the FreeBSD driver (defaults), as select-driver builds it.
  const config = loadConfig(
    { CLAWDIE_HOSTD_TOKEN: 'bench-token-'.padEnd(40, 'x') },
    undefined,
    'freebsd',
  );
  const budget = { commandTimeoutMs: COMMAND_TIMEOUT_MS, healthTimeoutMs: config.startTimeoutMs };
  const fake = new FakeFreeBSD();
  let ops: Op[] = [];
  let mark = performance.now();
  const record = (line: string, kind: OpKind) => {
    const now = performance.now();
    ops.push({ line, kind, ms: now - mark });
    mark = now;
  };
  const driver = new FreeBsdDriver({
    ...instrument(fake, record),
    layout: freeBsdLayout(config),
    now: fake.now,
    sleep: fake.sleep,
    commandTimeoutMs: budget.commandTimeoutMs,
    healthTimeoutMs: budget.healthTimeoutMs,
  });
  const steps = new Map<string, StepFigures>();
  for (const step of PLAN_STEPS) {
    const key = stepKey(step);
    steps.set(key, { key, lines: [], counts: { command: [], file: [], http: [] }, ms: [] });
  }
  const phase = async (name: Phase, cycle: number, operation: () => Promise<unknown>) => {
    ops = [];
    mark = performance.now();
    await operation();
    const last = ops.at(-1);
    if (last) last.ms += performance.now() - mark;
    const keys = assignSteps(
      name,
      ops.map((op) => op.line),
    );
    for (const figures of steps.values()) {
      if (!figures.key.startsWith(`${name}: `)) continue;
      const mine = ops.filter((_, i) => keys[i] === figures.key);
      if (cycle === 0) figures.lines = mine.map(({ line, kind }) => ({ line, kind }));
      for (const kind of ['command', 'file', 'http'] as const) {
        figures.counts[kind].push(mine.filter((op) => op.kind === kind).length);
      }
      figures.ms.push(mine.reduce((sum, op) => sum + op.ms, 0));
    }
  };
  for (let cycle = 0; cycle < cycles; cycle += 1) {
    const index = 1 + (cycle % 100);
    const spec = {
      taskId: `bench-${cycle}`,
      allowedDomains: ['example.com'],
      limits: config.limits,
      display,
    };
    let name = '';
    await phase('create', cycle, async () => {
      name = (await driver.create(index, spec)).name;
    });
    await phase('start', cycle, () => driver.start(name, { egressProxyUrl: null }));
    await phase('destroy', cycle, async () => {
      const { leftovers } = await driver.destroy(name);
      if (leftovers.length > 0) throw new Error(`${name} left ${leftovers.join(', ')}`);
    });
    await phase('reconcile', cycle, () => driver.reconcile(() => false));
    const residue = fake.residue();
    if (residue.length > 0) throw new Error(`cycle ${cycle} left ${residue.join(', ')}`);
  }
  const orphan = await reconcileOrphan(fake, driver, config.limits, () => ops);
  return { cycles, budget, steps: [...steps.values()], orphan };
}

async function reconcileOrphan(
  fake: FakeFreeBSD,
  driver: FreeBsdDriver,
  limits: CloneSpec['limits'],
  recorded: () => Op[],
): Promise<Record<OpKind, number>> {
  const spec = { taskId: 'orphan', allowedDomains: [], limits, display: false };
  const { name } = await driver.create(1, spec);
  await driver.start(name, { egressProxyUrl: null });
  const before = recorded().length;
  // The same driver stands for the restarted hostd: reconcile keeps no in-memory state.
  const { destroyed } = await driver.reconcile(() => false);
  if (destroyed.length !== 1 || fake.residue().length > 0) throw new Error('orphan not reconciled');
  const ops = recorded().slice(before);
  const count = (kind: OpKind) => ops.filter((op) => op.kind === kind).length;
  return { command: count('command'), file: count('file'), http: count('http') };
}

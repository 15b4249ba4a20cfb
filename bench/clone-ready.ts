// hostd clone benchmarks on the real Linux driver (root): clone-to-ready (create → first
// screenshot) cold p50/p95 and warm-pool p50 against the targets, with the median of each phase,
// then step p95 with N concurrent clones vs one, memory per clone, and a leak run. Builds the
// jail-service first: clones run its compiled JS (as in production), not TypeScript under tsx.
// Usage: npm run bench:clone [-- --cold=10 --warm=10 --concurrent=8 --cycles=100 --no-build]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { Clone } from '../hostd/src/api/schema.js';
import { CloneManager, primeFirstScreenshot } from '../hostd/src/clones/clone-manager.js';
import { jailServiceCommand } from '../hostd/src/drivers/select-driver.js';
import { acquireHostLock } from '../test/hostd/support/host-lock.js';
import {
  createTestDriver,
  hostLeftovers,
  linuxDriverMissing,
} from '../test/hostd/support/linux-harness.js';

const { values } = parseArgs({
  options: {
    cold: { type: 'string', default: '10' },
    warm: { type: 'string', default: '10' },
    concurrent: { type: 'string', default: '8' },
    steps: { type: 'string', default: '10' },
    cycles: { type: 'string', default: '100' },
    'no-build': { type: 'boolean', default: false },
  },
});
const missing = linuxDriverMissing();
if (missing) throw new Error(`bench needs the real Linux driver: ${missing}`);

const COLD_TARGET_MS = 1000;
const WARM_TARGET_MS = 150;
const limits = { memoryMb: 2048, pids: 1024, cpuPercent: 200 };
const quantile = (list: number[], q: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const ms = (value: number) => `${value.toFixed(0)} ms`;
const against = (value: number, target: number) =>
  `${ms(value)} (target ≤ ${ms(target)}: ${(value / target).toFixed(2)}× ${value <= target ? 'met' : 'MISSED'})`;

if (!values['no-build']) {
  execFileSync('npm', ['run', 'build', '--silent', '--workspace', '@clawdie/jail-service'], {
    stdio: 'inherit',
  });
}
const service = jailServiceCommand();
console.log(
  `jail-service: ${service.compiled ? 'compiled JS' : 'TypeScript under tsx'} (${service.argv.slice(1).join(' ')})`,
);
if (service.notice) console.log(`NOTE ${service.notice}`);
console.log(
  `host: ${cpus().length} CPUs, load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
);

/** Phase durations of the clone being measured: driver phases plus the jail-service's own log. */
const phases = new Map<string, number[]>();
let current: { name: string | null; spawnedAt: number; wallAt: number } = {
  name: null,
  spawnedAt: 0,
  wallAt: 0,
};
const record = (phase: string, value: number) => {
  phases.set(phase, [...(phases.get(phase) ?? []), value]);
};
function benchDriver() {
  return createTestDriver({
    serviceEnv: { CLAWDIE_LOG_LEVEL: 'info' },
    healthTimeoutMs: 60_000,
    onPhase: (name, phase, value) => {
      if (name !== current.name) return;
      record(`driver ${phase}`, value);
      if (phase === 'spawn') current = { ...current, spawnedAt: Date.now() };
    },
    onServiceLine: (name, line) => {
      if (name !== current.name) return;
      try {
        const entry = JSON.parse(line) as { msg?: string; time?: number };
        if (entry.msg === 'launched chromium' && entry.time) {
          record('service: spawn → chromium launched', entry.time - current.spawnedAt);
          current = { ...current, wallAt: entry.time };
        } else if (entry.msg === 'jail-service listening' && entry.time) {
          record('service: chromium launched → listening', entry.time - current.wallAt);
        }
      } catch {
        // Not a log line.
      }
    },
  });
}

async function screenshot(clone: Clone): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${clone.service.url}/screenshot`, {
    headers: { authorization: `Bearer ${clone.service.token}` },
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`screenshot: HTTP ${response.status}`);
  return performance.now() - started;
}

function memoryMb(clone: Clone): number {
  for (const file of [
    `/sys/fs/cgroup/memory/clawdie-hostd-test/${clone.name}/memory.usage_in_bytes`,
    `/sys/fs/cgroup/clawdie-hostd-test/${clone.name}/memory.current`,
  ]) {
    try {
      return Number(readFileSync(file, 'utf8')) / 1024 / 1024;
    } catch {}
  }
  return Number.NaN;
}

function manager(poolSize: number): CloneManager {
  return new CloneManager({
    driver: benchDriver(),
    defaultLimits: limits,
    defaultDisplay: false,
    proxyPort: 3128,
    poolSize,
    startTimeoutMs: 60_000,
    primeWarmClone: primeFirstScreenshot,
  });
}

// Released on exit: no test file or other bench may use clones meanwhile.
await acquireHostLock();
await createTestDriver().reconcile(() => false);
const cold: number[] = [];
const coldManager = manager(0);
for (let i = 0; i < Number(values.cold); i += 1) {
  const started = performance.now();
  const names = await coldManager.list();
  // The next clone takes the lowest free index: follow its phases only.
  current = {
    name: `browsertask${String(lowestFree(names)).padStart(3, '0')}`,
    spawnedAt: 0,
    wallAt: 0,
  };
  const clone = await coldManager.create({ taskId: `cold-${i}` });
  const ready = performance.now();
  record('hand-out (create returned)', ready - started);
  record('first screenshot', await screenshot(clone));
  cold.push(performance.now() - started);
  current = { name: null, spawnedAt: 0, wallAt: 0 };
  await coldManager.destroy(clone.name);
}

const warmManager = manager(1);
warmManager.fillPool();
const warm: number[] = [];
for (let i = 0; i < Number(values.warm); i += 1) {
  await warmManager.poolReady(60_000);
  const started = performance.now();
  const clone = await warmManager.create({ taskId: `warm-${i}` });
  if (!clone.fromPool) throw new Error('the warm clone did not come from the pool');
  record('warm: hand-out (create returned)', performance.now() - started);
  record('warm: first screenshot (pool refilling meanwhile)', await screenshot(clone));
  warm.push(performance.now() - started);
  await warmManager.destroy(clone.name);
}
await warmManager.close();

console.log('phases (median):');
for (const [phase, list] of phases) console.log(`  ${phase.padEnd(50)} ${ms(quantile(list, 0.5))}`);
console.log(
  `cold clone-to-first-screenshot (n=${cold.length}): p50 ${against(quantile(cold, 0.5), COLD_TARGET_MS)}, p95 ${ms(quantile(cold, 0.95))}`,
);
console.log(
  `warm-pool clone-to-first-screenshot (n=${warm.length}): p50 ${against(quantile(warm, 0.5), WARM_TARGET_MS)}, p95 ${ms(quantile(warm, 0.95))}`,
);

function lowestFree(clones: readonly Clone[]): number {
  const used = new Set(clones.map((clone) => clone.index));
  let index = 1;
  while (used.has(index)) index += 1;
  return index;
}

async function stepTimes(clones: Clone[]): Promise<number[]> {
  const times: number[] = [];
  await Promise.all(
    clones.map(async (clone) => {
      for (let i = 0; i < Number(values.steps); i += 1) times.push(await screenshot(clone));
    }),
  );
  return times;
}
if (Number(values.concurrent) > 0) {
  const many = await Promise.all(
    Array.from({ length: Number(values.concurrent) }, (_, i) =>
      coldManager.create({ taskId: `c-${i}` }),
    ),
  );
  const single = await stepTimes([many[0] as Clone]);
  const together = await stepTimes(many);
  const memory = many.map(memoryMb);
  console.log(
    `screenshot step p95: single ${ms(quantile(single, 0.95))}, ${many.length} concurrent ${ms(quantile(together, 0.95))}`,
  );
  console.log(
    `memory per clone (cgroup, incl. page cache): mean ${(memory.reduce((a, b) => a + b, 0) / memory.length).toFixed(0)} MiB`,
  );
}
await coldManager.close();

const driver = createTestDriver();
const cycles = Number(values.cycles);
const cycleStart = performance.now();
for (let i = 0; i < cycles; i += 1) {
  const clone = await driver.create(950 + (i % 10), {
    taskId: `leak-${i}`,
    allowedDomains: [],
    limits,
    display: i % 2 === 0,
  });
  const { leftovers } = await driver.destroy(clone.name);
  if (leftovers.length > 0) throw new Error(`cycle ${i} left ${leftovers.join(', ')}`);
}
if (cycles > 0) {
  console.log(
    `${cycles} create/destroy cycles: ${ms((performance.now() - cycleStart) / cycles)} each`,
  );
}
// Killed processes may take a moment to be reaped; then nothing of any clone may be left.
let left = hostLeftovers();
for (let wait = 0; left.length > 0 && wait < 50; wait += 1) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  left = hostLeftovers();
}
console.log(`leftovers on the host: ${JSON.stringify(left)}`);
process.exit(left.length > 0 ? 1 : 0);

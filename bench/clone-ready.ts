// hostd clone benchmarks on the real Linux driver (root): clone-to-ready (create → first
// screenshot) cold p50/p95 and warm-pool p50, step p95 with 8 concurrent clones vs one, memory per
// clone, and a leak run. Usage: npm run bench:clone [-- --cold=5 --warm=5 --concurrent=8 --cycles=100]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Clone } from '../hostd/src/api/schema.js';
import { CloneManager } from '../hostd/src/clones/clone-manager.js';
import {
  createTestDriver,
  hostLeftovers,
  linuxDriverMissing,
} from '../test/hostd/support/linux-harness.js';

const { values } = parseArgs({
  options: {
    cold: { type: 'string', default: '5' },
    warm: { type: 'string', default: '5' },
    concurrent: { type: 'string', default: '8' },
    steps: { type: 'string', default: '10' },
    cycles: { type: 'string', default: '100' },
  },
});
const missing = linuxDriverMissing();
if (missing) throw new Error(`bench needs the real Linux driver: ${missing}`);

const limits = { memoryMb: 2048, pids: 1024, cpuPercent: 200 };
const quantile = (list: number[], q: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const ms = (value: number) => `${value.toFixed(0)} ms`;

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
    driver: createTestDriver(),
    defaultLimits: limits,
    defaultDisplay: false,
    proxyPort: 3128,
    poolSize,
    startTimeoutMs: 60_000,
  });
}

await createTestDriver().reconcile(() => false);
const cold: number[] = [];
const coldManager = manager(0);
for (let i = 0; i < Number(values.cold); i += 1) {
  const started = performance.now();
  const clone = await coldManager.create({ taskId: `cold-${i}` });
  await screenshot(clone);
  cold.push(performance.now() - started);
  await coldManager.destroy(clone.name);
}
console.log(
  `cold clone-to-first-screenshot: p50 ${ms(quantile(cold, 0.5))}, p95 ${ms(quantile(cold, 0.95))}`,
);

const warmManager = manager(1);
warmManager.fillPool();
const warm: number[] = [];
for (let i = 0; i < Number(values.warm); i += 1) {
  await warmManager.poolReady(60_000);
  const started = performance.now();
  const clone = await warmManager.create({ taskId: `warm-${i}` });
  await screenshot(clone);
  warm.push(performance.now() - started);
  await warmManager.destroy(clone.name);
}
await warmManager.close();
console.log(`warm-pool clone-to-first-screenshot: p50 ${ms(quantile(warm, 0.5))}`);

async function stepTimes(clones: Clone[]): Promise<number[]> {
  const times: number[] = [];
  await Promise.all(
    clones.map(async (clone) => {
      for (let i = 0; i < Number(values.steps); i += 1) times.push(await screenshot(clone));
    }),
  );
  return times;
}
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
await coldManager.close();

const driver = createTestDriver();
const cycleStart = performance.now();
for (let i = 0; i < Number(values.cycles); i += 1) {
  const clone = await driver.create(950 + (i % 10), {
    taskId: `leak-${i}`,
    allowedDomains: [],
    limits,
    display: i % 2 === 0,
  });
  const { leftovers } = await driver.destroy(clone.name);
  if (leftovers.length > 0) throw new Error(`cycle ${i} left ${leftovers.join(', ')}`);
}
await new Promise((resolve) => setTimeout(resolve, 1000));
console.log(
  `${values.cycles} create/destroy cycles: ${ms((performance.now() - cycleStart) / Number(values.cycles))} each, leftovers: ${JSON.stringify(hostLeftovers())}`,
);
process.exit(0);

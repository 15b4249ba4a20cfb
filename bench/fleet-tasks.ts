// A fleet on one machine (issue 27): the same burst of demo tasks on one host (capacity 4) and on
// two hosts (capacity 2 each, every browser call through their hostd relays), one controlplane
// of concurrency 4, real Linux clones (root). Submit → first step p50/p95 and throughput (tasks
// per minute), rounds alternating between the two shapes so both see the same machine.
// Usage: npm run bench:fleet [-- --rounds=2 --tasks=8]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { runDemo } from '../controlplane/src/ingress/cli/demo-command.js';
import { startDemoSite } from '../controlplane/src/platform/demo/demo-site-server.js';
import { startFleet } from '../test/e2e/support/fleet-harness.js';
import { acquireHostLock } from '../test/hostd/support/host-lock.js';
import {
  linuxDriverMissing,
  TEST_NAMESPACE,
  TEST_OTHER_NAMESPACE,
} from '../test/hostd/support/linux-harness.js';
import { percentile, round } from './bench-stats.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '2' },
    tasks: { type: 'string', default: '8' },
  },
});
const missing = linuxDriverMissing();
if (missing) throw new Error(`bench needs the real Linux driver: ${missing}`);
const rounds = Number(values.rounds);
const taskCount = Number(values.tasks);
const release = await acquireHostLock();
const site = await startDemoSite();

const shapes = {
  '1 host × 4': { namespaces: [TEST_NAMESPACE], capacity: 4 },
  '2 hosts × 2': { namespaces: [TEST_NAMESPACE, TEST_OTHER_NAMESPACE], capacity: 2 },
} as const;
type Shape = keyof typeof shapes;
const firstStep: Record<Shape, number[]> = { '1 host × 4': [], '2 hosts × 2': [] };
const perMinute: Record<Shape, number[]> = { '1 host × 4': [], '2 hosts × 2': [] };

async function burst(shape: Shape): Promise<void> {
  const fleet = await startFleet({ ...shapes[shape], concurrency: 4, site });
  try {
    const started = performance.now();
    const runs = await Promise.all(
      Array.from({ length: taskCount }, async () => {
        const submitted = Date.now();
        let first: number | null = null;
        const { result } = await runDemo(fleet.controlplane.createTasks, {
          site,
          onEvent: (event) => {
            if (event.type === 'step-started' && first === null) first = event.at - submitted;
          },
        });
        if (result.status !== 'finished') throw new Error(`${shape}: ${JSON.stringify(result)}`);
        return first ?? Number.NaN;
      }),
    );
    firstStep[shape].push(...runs);
    perMinute[shape].push((taskCount / (performance.now() - started)) * 60_000);
  } finally {
    await fleet.close();
  }
}

try {
  for (let round = 0; round < rounds; round += 1)
    for (const shape of round % 2
      ? (['2 hosts × 2', '1 host × 4'] as const)
      : (['1 host × 4', '2 hosts × 2'] as const))
      await burst(shape);
} finally {
  await site.close();
  release();
}

const mean = (sample: readonly number[]) => sample.reduce((a, b) => a + b, 0) / sample.length;
const rows = (Object.keys(shapes) as Shape[]).map((shape) => ({
  shape,
  tasks: firstStep[shape].length,
  'first step p50 ms': round(percentile(firstStep[shape], 50), 0),
  'first step p95 ms': round(percentile(firstStep[shape], 95), 0),
  'tasks/min': round(mean(perMinute[shape]), 1),
}));
console.table(rows);
const [one, two] = rows;
if (one && two)
  console.log(
    `ratios (2 hosts ÷ 1 host): first-step p95 ${round(two['first step p95 ms'] / one['first step p95 ms'])}×, throughput ${round(two['tasks/min'] / one['tasks/min'])}× — load average ${loadavg()[0]?.toFixed(1)} on ${rounds} rounds of ${taskCount} tasks`,
  );

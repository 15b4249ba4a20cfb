// Controlplane replicas over a fleet (issue 27): the same burst of demo tasks through 1 replica ×
// 1 host and through 2 replicas × 3 hosts (tasks round-robin to the replicas), with the same
// slots in total, on this machine: real hostd processes with the real Linux driver (root), each
// in its own clone namespace, the replicas in this process on one PostgreSQL database (a fresh
// one per burst; the 1 × 1 shape uses it too, so only the shape differs). Submit → first step
// p50/p95 and throughput (tasks per minute), rounds alternating between the two shapes.
// Usage: npm run bench:replicas [-- --rounds=2 --tasks=12 --slots=6]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { runDemo } from '../controlplane/src/ingress/cli/demo-command.js';
import { startDemoSite } from '../controlplane/src/platform/demo/demo-site-server.js';
import { startReplicaFleet } from '../test/e2e/support/replica-fleet.js';
import { acquireHostLock } from '../test/hostd/support/host-lock.js';
import { FLEET_NAMESPACES, linuxDriverMissing } from '../test/hostd/support/linux-harness.js';
import { missingCapabilities } from '../test/support/capabilities.js';
import { startPostgres } from '../test/support/postgres/start-postgres.js';
import { percentile, round } from './bench-stats.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '2' },
    tasks: { type: 'string', default: '12' },
    /** Clones at once over the whole fleet (a multiple of 6: split over 2 replicas and 3 hosts). */
    slots: { type: 'string', default: '6' },
  },
});
const missing = linuxDriverMissing() ?? missingCapabilities('postgres');
if (missing) throw new Error(`bench needs the real Linux driver and PostgreSQL: ${missing}`);
const rounds = Number(values.rounds);
const taskCount = Number(values.tasks);
const slots = Number(values.slots);
if (slots % 6 !== 0) throw new Error('--slots must be a multiple of 6');

const shapes = {
  '1 replica × 1 host': { replicas: 1, hosts: 1 },
  '2 replicas × 3 hosts': { replicas: 2, hosts: 3 },
} as const;
type Shape = keyof typeof shapes;
const names = Object.keys(shapes) as Shape[];
const firstStep = Object.fromEntries(names.map((name) => [name, [] as number[]]));
const perMinute = Object.fromEntries(names.map((name) => [name, [] as number[]]));

const release = await acquireHostLock();
const site = await startDemoSite();
const cluster = await startPostgres();

async function burst(shape: Shape): Promise<void> {
  const { replicas, hosts } = shapes[shape];
  const fleet = await startReplicaFleet({
    databaseUrl: await cluster.createDatabase(),
    namespaces: FLEET_NAMESPACES.slice(0, hosts),
    replicas,
    capacity: slots / hosts,
    concurrency: slots / replicas,
    site,
  });
  try {
    const started = performance.now();
    const runs = await Promise.all(
      Array.from({ length: taskCount }, async (_, index) => {
        const replica = fleet.replicas[index % replicas];
        if (!replica) throw new Error('no replica');
        const submitted = Date.now();
        let first: number | null = null;
        const { result } = await runDemo(replica.createTasks, {
          site,
          onEvent: (event) => {
            if (event.type === 'step-started' && first === null) first = event.at - submitted;
          },
        });
        if (result.status !== 'finished') throw new Error(`${shape}: ${JSON.stringify(result)}`);
        return first ?? Number.NaN;
      }),
    );
    firstStep[shape]?.push(...runs);
    perMinute[shape]?.push((taskCount / (performance.now() - started)) * 60_000);
  } finally {
    await fleet.close();
  }
}

try {
  for (let round = 0; round < rounds; round += 1)
    for (const shape of round % 2 ? [...names].reverse() : names) await burst(shape);
} finally {
  await cluster.stop();
  await site.close();
  release();
}

const mean = (sample: readonly number[]) => sample.reduce((a, b) => a + b, 0) / sample.length;
const rows = names.map((shape) => ({
  shape,
  tasks: firstStep[shape]?.length ?? 0,
  'first step p50 ms': round(percentile(firstStep[shape] ?? [], 50), 0),
  'first step p95 ms': round(percentile(firstStep[shape] ?? [], 95), 0),
  'tasks/min': round(mean(perMinute[shape] ?? []), 1),
}));
console.table(rows);
const [one, many] = rows;
if (one && many)
  console.log(
    `ratios (2 × 3 ÷ 1 × 1): first-step p50 ${round(many['first step p50 ms'] / one['first step p50 ms'])}×, p95 ${round(many['first step p95 ms'] / one['first step p95 ms'])}×, throughput ${round(many['tasks/min'] / one['tasks/min'])}× — ${slots} slots, load average ${loadavg()[0]?.toFixed(1)}, ${rounds} rounds of ${taskCount} tasks`,
  );

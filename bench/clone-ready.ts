// hostd clone benchmarks on the real Linux driver (root): clone-to-ready (create → first
// screenshot) cold p50/p95 and warm-pool p50 with each phase's median; a screenshot+click step's
// p95 with N concurrent clones vs one, and memory per clone; leak runs (create/destroy cycles,
// kills mid-start). Builds the jail-service first: clones run its compiled JS, as in production.
// Usage: npm run bench:clone [-- --cold=10 --warm=10 --concurrent=8 --steps=10 --think-ms=0 --cycles=100 …]
// `-- --driver=freebsd-fake [--cycles=100 --linux-cycles=3 --display]`: the FreeBSD clone plan instead
// (command counts and step budgets; clone-plan-report.ts), beside Linux's counts.
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startDemoSite } from '../controlplane/src/platform/demo/demo-site-server.js';
import { jailServiceCommand } from '../hostd/src/drivers/select-driver.js';
import { acquireHostLock } from '../test/hostd/support/host-lock.js';
import {
  createTestDriver,
  linuxDriverMissing,
  TEST_CGROUP,
} from '../test/hostd/support/linux-harness.js';
import { bareChromium, CLONE_CHROMIUM, FULL_CHROMIUM, inCloneLikeCgroup } from './bare-chromium.js';
import { percentile } from './bench-stats.js';
import { benchManager, buildJailService, BENCH_LIMITS as limits } from './clone-bench-setup.js';
import { runLeakCycles } from './clone-leaks.js';
import { actions, memoryMb, pssByKind, pssMb, screenshot, stepTimes } from './clone-probes.js';

const { values } = parseArgs({
  options: {
    cold: { type: 'string', default: '10' },
    warm: { type: 'string', default: '10' },
    concurrent: { type: 'string', default: '8' },
    steps: { type: 'string', default: '10' },
    /** Model time between steps (jittered ±50 %): 0 = back to back, CPU-bound on small hosts. */
    'think-ms': { type: 'string', default: '0' },
    cycles: { type: 'string', default: '100' },
    kills: { type: 'string', default: '20' },
    'no-build': { type: 'boolean', default: false },
    /** Also a cold clone running the unbundled dist/main.js each round: the bundle's share. */
    'cold-unbundled': { type: 'boolean', default: false },
    driver: { type: 'string', default: 'linux' },
    'linux-cycles': { type: 'string', default: '3' },
    /** freebsd-fake: every clone with a display (Xvfb inside the jail). */
    display: { type: 'boolean', default: false },
  },
});
if (values.driver === 'freebsd-fake') {
  const { runFreeBsdFakeBench } = await import('./clone-plan-report.js');
  const linuxCycles = Number(values['linux-cycles']);
  if (linuxCycles > 0 && !linuxDriverMissing()) buildJailService(values['no-build']);
  await runFreeBsdFakeBench({
    cycles: Number(values.cycles),
    linuxCycles,
    display: values.display,
  });
  process.exit(0);
}
if (values.driver !== 'linux') throw new Error(`--driver must be linux or freebsd-fake`);
const missing = linuxDriverMissing();
if (missing) throw new Error(`bench needs the real Linux driver: ${missing}`);

const COLD_TARGET_MS = 1000;
const WARM_TARGET_MS = 30;
const quantile = (list: number[], q: number) => percentile(list, q * 100);
const ms = (value: number) => `${value.toFixed(0)} ms`;
const against = (value: number, target: number) =>
  `${ms(value)} (target ≤ ${ms(target)}: ${(value / target).toFixed(2)}× ${value <= target ? 'met' : 'MISSED'})`;

buildJailService(values['no-build']);
const service = jailServiceCommand();
console.log(
  `jail-service: ${service.compiled ? 'compiled JS' : 'TypeScript under tsx'} (${service.argv.slice(1).join(' ')})`,
);
if (service.notice) console.log(`NOTE ${service.notice}`);
const load = loadavg().map((value) => value.toFixed(2));
console.log(`host: ${cpus().length} CPUs, load average ${load.join(' ')}`);

/** Phase durations of the clone being measured: driver phases plus the jail-service's own log. */
const phases = new Map<string, number[]>();
type Current = { name: string | null; spawnedAt: number; wallAt: number };
let current: Current = { name: null, spawnedAt: 0, wallAt: 0 };
/** Clones whose Chromium runs without its own sandbox (the jail-service fell back). */
let unsandboxed = 0;
const NEXT_CLONE = '(next clone)';
const record = (phase: string, value: number) => {
  phases.set(phase, [...(phases.get(phase) ?? []), value]);
};
function benchDriver(serviceArgv?: readonly string[]) {
  return createTestDriver({
    ...(serviceArgv ? { serviceArgv } : {}),
    // As production's (select-driver.ts): Chromium's own sandbox where it can nest one, and
    // CLAWDIE_CHROMIUM_PATH only when set (e.g. /usr/bin/chromium, to compare the full browser).
    serviceEnv: {
      CLAWDIE_LOG_LEVEL: 'info',
      CLAWDIE_JAIL_CHROMIUM_SANDBOX: 'auto',
      ...(process.env.CLAWDIE_CHROMIUM_PATH
        ? { CLAWDIE_CHROMIUM_PATH: process.env.CLAWDIE_CHROMIUM_PATH }
        : {}),
    },
    healthTimeoutMs: 60_000,
    onPhase: (name, phase, value) => {
      // Clone names are handed out round-robin: follow whichever clone the measured create makes.
      if (current.name === NEXT_CLONE) current = { ...current, name };
      if (name !== current.name) return;
      record(`driver ${phase}`, value);
      if (phase === 'spawn') current = { ...current, spawnedAt: Date.now() };
    },
    onServiceLine: (name, line) => {
      if (line.includes('"launched chromium"') && line.includes('"sandbox":false'))
        unsandboxed += 1;
      if (name !== current.name) return;
      try {
        const entry = JSON.parse(line) as { msg?: string; time?: number; sandbox?: boolean };
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

const manager = (poolSize: number, serviceArgv?: readonly string[]) =>
  benchManager({ driver: benchDriver(serviceArgv), poolSize, siteHost });

// Released on exit: no test file or other bench may use clones meanwhile.
await acquireHostLock();
await createTestDriver().reconcile(() => false);
const site = await startDemoSite();
const siteHost = new URL(site.url).host;
// Each cold clone right after a bare launch of the same Chromium (bare-chromium.ts): the ratio
// of their medians compares the two under the same load.
const cold: number[] = [];
const bare: number[] = [];
const coldManager = manager(0);
const unbundled: number[] = [];
/** The same bare launch in a CPU cgroup beside the clones' (bare-chromium.ts). */
const bareInGroup: number[] = [];
/** A bare launch of the full browser, when the clones run another binary (the headless shell). */
const bareFull: number[] = [];
const unbundledArgv = service.argv.map((arg) =>
  arg.replace(/dist\/bundle\/main\.mjs$/, 'dist/main.js'),
);
const unbundledManager = values['cold-unbundled'] ? manager(0, unbundledArgv) : null;
for (let i = 0; i < Number(values.cold); i += 1) {
  bare.push(await bareChromium(null));
  bareInGroup.push(await inCloneLikeCgroup(TEST_CGROUP, () => bareChromium(null)));
  if (CLONE_CHROMIUM !== FULL_CHROMIUM) bareFull.push(await bareChromium(null, FULL_CHROMIUM));
  if (unbundledManager) {
    const started = performance.now();
    const clone = await unbundledManager.create({ taskId: `unbundled-${i}` });
    await screenshot(clone);
    unbundled.push(performance.now() - started);
    await unbundledManager.destroy(clone.name, clone.leaseId);
  }
  const started = performance.now();
  current = { name: NEXT_CLONE, spawnedAt: 0, wallAt: 0 };
  const clone = await coldManager.create({ taskId: `cold-${i}` });
  const ready = performance.now();
  record('hand-out (create returned)', ready - started);
  record('first screenshot', await screenshot(clone));
  cold.push(performance.now() - started);
  current = { name: null, spawnedAt: 0, wallAt: 0 };
  await coldManager.destroy(clone.name, clone.leaseId);
}

const warmManager = manager(Number(values.warm) > 0 ? 1 : 0);
warmManager.fillPool();
const warm: number[] = [];
/** A screenshot of a clone that has answered one before: the warm hand-out's baseline. */
const steady: number[] = [];
for (let i = 0; i < Number(values.warm); i += 1) {
  await warmManager.poolReady(60_000);
  const started = performance.now();
  const clone = await warmManager.create({ taskId: `warm-${i}` });
  if (!clone.fromPool) throw new Error('the warm clone did not come from the pool');
  record('warm: hand-out (create returned)', performance.now() - started);
  record('warm: first screenshot (pool refilling meanwhile)', await screenshot(clone));
  warm.push(performance.now() - started);
  await actions(clone, [{ type: 'hover', x: 640, y: 400 }]);
  steady.push(await screenshot(clone));
  await warmManager.destroy(clone.name, clone.leaseId);
}
await warmManager.close();

if (cold.length + warm.length > 0) {
  console.log('phases (median):');
  for (const [phase, list] of phases)
    console.log(`  ${phase.padEnd(50)} ${ms(quantile(list, 0.5))}`);
}
const report = (label: string, list: number[], target: number) => {
  const [p50, p95] = [against(quantile(list, 0.5), target), ms(quantile(list, 0.95))];
  if (list.length > 0) console.log(`${label} (n=${list.length}): p50 ${p50}, p95 ${p95}`);
};
const ratio = (label: string, list: number[], base: number[], baseLabel: string, goal: number) => {
  if (list.length === 0 || base.length === 0) return;
  const [a, b] = [quantile(list, 0.5), quantile(base, 0.5)];
  const met = a / b <= goal ? 'met' : 'MISSED';
  console.log(
    `${label}: p50 ${ms(a)} ÷ ${baseLabel} p50 ${ms(b)} (same run, interleaved) = ${(a / b).toFixed(2)}× (goal ≤ ${goal}×: ${met})`,
  );
};
console.log(`clones' browser and the bare baseline's: ${CLONE_CHROMIUM}`);
report('cold clone-to-first-screenshot', cold, COLD_TARGET_MS);
report('bare puppeteer.launch + first screenshot', bare, COLD_TARGET_MS);
ratio('cold ÷ bare', cold, bare, 'bare launch', 1.2);
report('bare launch in a cgroup beside the clones', bareInGroup, COLD_TARGET_MS);
ratio('cold ÷ bare in a clone-like cgroup', cold, bareInGroup, 'bare in cgroup', 1.2);
report(`bare launch of ${FULL_CHROMIUM}`, bareFull, COLD_TARGET_MS);
ratio(`cold ÷ bare ${FULL_CHROMIUM}`, cold, bareFull, 'full bare launch', 1.2);
report('cold, unbundled dist/main.js', unbundled, COLD_TARGET_MS);
ratio('cold unbundled ÷ bare', unbundled, bare, 'bare launch', 1.2);
report('warm-pool clone-to-first-screenshot', warm, WARM_TARGET_MS);
report('screenshot after an input (real capture)', steady, WARM_TARGET_MS);
ratio('warm hand-out ÷ a real capture', warm, steady, 'capture', 1);
console.log(`clones whose Chromium ran without its own sandbox: ${unsandboxed}`);

const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
const concurrent = Number(values.concurrent);
const stepOptions = { steps: Number(values.steps), thinkMs: Number(values['think-ms']) };
if (concurrent > 0) {
  // The clones load the demo shop from a host server, through their egress proxies.
  const page = `${site.url}/`;
  const open = async (i: number) => {
    const clone = await coldManager.create({ taskId: `c-${i}`, allowedDomains: [siteHost] });
    await actions(clone, [{ type: 'navigate', url: page }]);
    return clone;
  };
  const first = await open(0);
  const single = await stepTimes([first], stepOptions);
  const many = [
    first,
    ...(await Promise.all(Array.from({ length: concurrent - 1 }, (_, i) => open(i + 1)))),
  ];
  const together = await stepTimes(many, stepOptions);
  const [p95one, p95all] = [quantile(single.times, 0.95), quantile(together.times, 0.95)];
  console.log(
    `screenshot+click step (n=${values.steps}/clone, model think time ${values['think-ms']} ms): single p50 ${ms(quantile(single.times, 0.5))} p95 ${ms(p95one)}; ${many.length} concurrent p50 ${ms(quantile(together.times, 0.5))} p95 ${ms(p95all)} (${(p95all / p95one).toFixed(2)}× single, target ≤ 2×: ${p95all <= 2 * p95one ? 'met' : 'MISSED'})`,
  );
  console.log(
    `clone CPU per step (cgroup): single ${ms(single.cpuPerStep)}, concurrent ${ms(together.cpuPerStep)} (${many.length} clones on ${cpus().length} CPUs)`,
  );
  const cpuKinds = (byKind: Record<string, number>) =>
    Object.entries(byKind)
      .filter(([, ms]) => ms >= 0.5)
      .sort(([, a], [, b]) => b - a)
      .map(([kind, ms]) => `${kind} ${ms.toFixed(1)}`)
      .join(', ');
  console.log(
    `CPU per step by process (ms, /proc, 10 ms ticks): single ${cpuKinds(single.cpuPerStepByKind)}; concurrent ${cpuKinds(together.cpuPerStepByKind)}`,
  );
  console.log(
    `memory per clone: cgroup (incl. page cache) mean ${mean(many.map(memoryMb)).toFixed(0)} MiB, PSS mean ${mean(many.map(pssMb)).toFixed(0)} MiB`,
  );
  const kinds = many.map(pssByKind);
  const names = [...new Set(kinds.flatMap((byKind) => Object.keys(byKind)))]
    .filter((name) => !name.startsWith('#'))
    .sort();
  const perKind = names.map(
    (name) =>
      `${name} ${mean(kinds.map((k) => k[name] ?? 0)).toFixed(1)} (×${mean(kinds.map((k) => k[`#${name}`] ?? 0)).toFixed(1)})`,
  );
  console.log(`PSS per clone by process (MiB, mean): ${perKind.join(', ')}`);
}
await site.close();
await coldManager.close();
await unbundledManager?.close();

await runLeakCycles({ cycles: Number(values.cycles), kills: Number(values.kills), limits });

// npm run bench:startup — how long the controlplane server (`npm start`) and the local jail-service
// take from their spawn to the line saying they listen, each as its bundle (what runs since
// 2026-11-28: controlplane/bin/clawdie-server.mjs → dist/bundle/controlplane.cjs; the jail-service's
// dist/bundle/main.mjs with its V8 code cache, as local-jail-service.ts starts it) and as the compiled
// files (controlplane/dist/main.js; jail-service/dist/main.js), against `node -e 0` spawned in the
// same run. Interleaved, BENCH_ITERATIONS rounds (default 10) after 2 warm-up rounds; CPU is the
// process's own user + system time when it says it listens (/proc/<pid>/stat, Linux; the
// jail-service's Chromium is another process and not counted). Needs `npm run build` first.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS } from '@clawdie/jail-service/node-flags';
import { currentBundle } from '@clawdie/jail-service/service-bundle';
import { freePort } from '../controlplane/src/browser/provider/child-service.js';
import { percentile, round } from './bench-stats.js';

const iterations = Number(process.env.BENCH_ITERATIONS ?? 10);
const warmup = 2;
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

interface Mode {
  name: string;
  argv: () => Promise<string[]>;
  /** The environment of one start, in `dir`. */
  env: (dir: string) => Promise<Record<string, string>>;
  /** The line that ends the measurement; none: the process's exit. */
  ready?: RegExp;
}

const base = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const serverEnv = async (dir: string) => ({
  ...base,
  HOME: dir,
  CLAWDIE_DATA_DIR: join(dir, 'data'),
  CLAWDIE_PORT: '0',
  CLAWDIE_HOSTD: 'off',
  CLAWDIE_LOG_LEVEL: 'info',
  // Not contacted at start: no browser is needed for the server to listen.
  CLAWDIE_JAIL_URL: 'http://127.0.0.1:9',
  CLAWDIE_JAIL_TOKEN: 'x'.repeat(32),
});
const jailEnv = async (dir: string) => ({
  ...base,
  HOME: dir,
  TMPDIR: dir,
  CLAWDIE_JAIL_TOKEN: 'x'.repeat(48),
  CLAWDIE_JAIL_HOST: '127.0.0.1',
  CLAWDIE_JAIL_PORT: String(await freePort()),
  CLAWDIE_JAIL_CHROMIUM_SANDBOX: 'false',
});
const listening = /listening/;

const modes: Mode[] = [
  { name: 'node_e0', argv: async () => ['-e', '0'], env: async () => base },
  {
    name: 'server_compiled',
    argv: async () => ['controlplane/dist/main.js'],
    env: serverEnv,
    ready: listening,
  },
  {
    name: 'server_bundle',
    argv: async () => ['controlplane/bin/clawdie-server.mjs'],
    env: serverEnv,
    ready: listening,
  },
  // BENCH_BEFORE_SERVER: another server entry (e.g. an older checkout's bundle), for a before/after.
  ...(process.env.BENCH_BEFORE_SERVER
    ? [
        {
          name: 'server_before',
          argv: async () => [process.env.BENCH_BEFORE_SERVER as string],
          env: serverEnv,
          ready: listening,
        },
      ]
    : []),
  {
    name: 'jail_compiled',
    argv: async () => [...SERVICE_NODE_FLAGS, 'jail-service/dist/main.js'],
    env: jailEnv,
    ready: /jail-service listening/,
  },
  {
    name: 'jail_bundle',
    argv: async () => {
      const bundle = currentBundle('jail-service', ['jail-service/dist', 'kit/dist']);
      if (!bundle) throw new Error('the jail-service bundle is not current: run `npm run build`');
      return [...SERVICE_NODE_FLAGS, bundle];
    },
    env: jailEnv,
    ready: /jail-service listening/,
  },
];

function cpuOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

async function once(mode: Mode): Promise<{ ms: number; cpuMs: number | null }> {
  const dir = mkdtempSync(join(tmpdir(), 'clawdie-bench-startup-'));
  try {
    const env = await mode.env(dir);
    const argv = await mode.argv();
    const started = performance.now();
    const child = spawn(process.execPath, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let output = '';
    const sample = await new Promise<{ ms: number; cpuMs: number | null }>((resolve, reject) => {
      const ready = mode.ready;
      if (ready) {
        const look = (chunk: Buffer) => {
          output += chunk;
          if (!ready.test(output)) return;
          child.stdout.off('data', look);
          child.stderr.off('data', look);
          resolve({ ms: performance.now() - started, cpuMs: cpuOf(child.pid ?? 0) });
        };
        child.stdout.on('data', look);
        child.stderr.on('data', look);
      }
      void exited.then((code) => {
        if (!ready && code === 0) resolve({ ms: performance.now() - started, cpuMs: null });
        else reject(new Error(`${mode.name} exited ${code}: ${output.slice(-600)}`));
      });
    });
    if (mode.ready) {
      child.kill('SIGTERM');
      await exited;
    }
    return sample;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const samples = new Map(modes.map((mode) => [mode.name, [] as { ms: number; cpuMs: number }[]]));
for (let round_ = 0; round_ < warmup + iterations; round_++) {
  for (const mode of modes) {
    const sample = await once(mode);
    if (round_ >= warmup) samples.get(mode.name)?.push({ ...sample, cpuMs: sample.cpuMs ?? NaN });
  }
}

const p50 = (name: string, key: 'ms' | 'cpuMs') =>
  percentile(
    (samples.get(name) ?? []).map((sample) => sample[key]),
    50,
  );
const rows = modes.map(({ name }) => ({
  mode: name,
  p50_ms: round(p50(name, 'ms'), 0),
  p95_ms: round(
    percentile(
      (samples.get(name) ?? []).map((sample) => sample.ms),
      95,
    ),
    0,
  ),
  cpu_p50_ms: round(p50(name, 'cpuMs'), 0),
  over_node_e0_ms: round(p50(name, 'ms') - p50('node_e0', 'ms'), 0),
}));
console.log(JSON.stringify({ iterations, rows }, null, 2));
for (const service of ['server', 'jail']) {
  const ratio = (key: 'ms' | 'cpuMs') =>
    round(p50(`${service}_bundle`, key) / p50(`${service}_compiled`, key));
  console.log(
    `${service}: bundle ÷ compiled, to listening p50 ${ratio('ms')}×, CPU p50 ${ratio('cpuMs')}×`,
  );
}

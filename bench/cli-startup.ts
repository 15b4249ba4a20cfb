// npm run bench:cli — how long `clawdie run` takes from its spawn to the first model request that
// carries a screenshot, against `node -e 0` spawned in the same run. A fake OpenAI-compatible
// server notes when that request arrives (and, on Linux, the CPU time the CLI process has used by
// then, from /proc: robust on a busy machine) and answers `finished`, so each run ends at once.
// Modes, interleaved: `node_e0`; `attached` (CLAWDIE_JAIL_URL: a jail-service with Chromium
// already running, started here once); `local` (the CLI starts its own jail-service and Chromium,
// as `clawdie run` does by default; BENCH_LOCAL_ITERATIONS, default 5); `before` when
// BENCH_BEFORE_ENTRY names another checkout's bin/clawdie.mjs (attached, for a before/after), or
// BENCH_BEFORE_NODE_FLAGS node flags for the same entry. Attached runs pass through a proxy in
// front of the jail-service, which notes when the CLI first asks for a screenshot and when that
// answer has been read: the browser's share of the run, and the CLI's own work on the image after.
// The CLI is controlplane/bin/clawdie.mjs (built JS) unless BENCH_CLI_ENTRY names another.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalJailService } from '../controlplane/src/browser/provider/local-jail-service.js';
import { collectRun } from '../test/support/clawdie-cli.js';
import { silentLogger } from '../test/support/silent-logger.js';
import { testLauncher } from '../test/support/test-launcher.js';
import { startChatServer } from '../test/support/uitars-test-model-server.js';
import { percentile, round } from './bench-stats.js';

const iterations = Number(process.env.BENCH_ITERATIONS ?? 20);
const localIterations = Number(process.env.BENCH_LOCAL_ITERATIONS ?? 5);
const warmup = 2;
const entry = process.env.BENCH_CLI_ENTRY ?? 'controlplane/bin/clawdie.mjs';
// BENCH_BEFORE_NODE_FLAGS (space-separated) go before the `before` entry: node flags side by side.
const beforeFlags = (process.env.BENCH_BEFORE_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const beforeEntry = process.env.BENCH_BEFORE_ENTRY ?? (beforeFlags.length > 0 ? entry : undefined);
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

interface Sample {
  /** Spawn to the first screenshot request (node_e0: to exit). */
  ms: number;
  /** CPU (user + system) the process used by then; null where /proc is not readable. */
  cpuMs: number | null;
  /** Spawn to the CLI's first `GET /screenshot` at the jail-service (attached runs only). */
  askedMs?: number;
  /** Spawn to the jail-service's answer to that request, read to its end. */
  answeredMs?: number;
}

/** The run in progress: its spawn time, pid, and what the model server noted. */
let current: {
  started: number;
  pid: number;
  sample: Sample | null;
  asked: number | null;
  answered: number | null;
} | null = null;

function cpuOf(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

const model = await startChatServer({
  modelName: 'ui-tars-1.5-bench',
  delayMs: () => 0,
  respond: async (record) => {
    if (current && current.sample === null && record.imageCount > 0) {
      current.sample = {
        ms: performance.now() - current.started,
        cpuMs: cpuOf(current.pid),
        ...(current.asked === null ? {} : { askedMs: current.asked - current.started }),
        ...(current.answered === null ? {} : { answeredMs: current.answered - current.started }),
      };
    }
    return { kind: 'reply', content: "Thought: done.\nAction: finished(content='ok')" };
  },
});
const jail = await startLocalJailService({
  egressProxyUrl: null,
  launcher: testLauncher,
  env: process.env,
  logger: silentLogger,
});
// In front of the jail-service for the CLI: notes when the run in progress first asks it for a
// screenshot, and passes every request on.
const front = createServer((request, response) => {
  const run = current;
  const first = run !== null && run.asked === null && !!request.url?.startsWith('/screenshot');
  if (first) run.asked = performance.now();
  const onward = httpRequest(
    `${jail.url}${request.url ?? '/'}`,
    { method: request.method, headers: request.headers },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      if (first) answer.on('end', () => (run.answered = performance.now()));
      answer.pipe(response);
    },
  );
  onward.on('error', () => response.destroy());
  request.pipe(onward);
});
await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
const frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-bench-cli-'));

/** Spawns node with `argv`; resolves with its sample (null: no screenshot reached the model). */
async function timed(argv: string[], env: Record<string, string>, toExit = false) {
  const started = performance.now();
  const child = spawn(process.execPath, argv, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run = {
    started,
    pid: child.pid ?? -1,
    sample: null as Sample | null,
    asked: null,
    answered: null,
  };
  current = run;
  const { code, stdout, stderr } = await collectRun(child);
  if (code !== 0) throw new Error(`${argv.join(' ')}: exit code ${code}\n${stderr}`);
  if (toExit) {
    // node -e 0 reports its own CPU time just before it exits.
    const usage = JSON.parse(stdout) as { user: number; system: number };
    return { ms: performance.now() - started, cpuMs: (usage.user + usage.system) / 1000 };
  }
  if (run.sample === null) throw new Error(`no screenshot reached the model\n${stderr}`);
  return run.sample;
}

const cliEnv = {
  CLAWDIE_DATA_DIR: dataDir,
  CLAWDIE_MODEL_URL: model.baseUrl,
  CLAWDIE_MODEL_NAME: 'ui-tars-1.5-bench',
  CLAWDIE_HOSTD: 'off',
  CLAWDIE_LOG_LEVEL: 'warn',
};
const attachedEnv = { ...cliEnv, CLAWDIE_JAIL_URL: frontUrl, CLAWDIE_JAIL_TOKEN: jail.token };
const cliArgs = ['run', 'say ok', '--json', '--max-steps', '2'];
const modes: Record<string, () => Promise<Sample>> = {
  node_e0: () =>
    timed(['-e', 'process.stdout.write(JSON.stringify(process.cpuUsage()))'], {}, true),
  attached: () => timed([entry, ...cliArgs], attachedEnv),
  ...(beforeEntry
    ? { before: () => timed([...beforeFlags, beforeEntry, ...cliArgs], attachedEnv) }
    : {}),
  local: () => timed([entry, ...cliArgs], cliEnv),
};

const samples: Record<string, Sample[]> = Object.fromEntries(
  Object.keys(modes).map((mode) => [mode, []]),
);
const stat = (values: number[]) => ({
  p50: round(percentile(values, 50)),
  p95: round(percentile(values, 95)),
});
try {
  for (let i = 0; i < warmup + iterations; i++) {
    const order = Object.keys(modes).filter(
      (mode) => mode !== 'local' || i < warmup + localIterations,
    );
    // Rotate the order so no mode always runs first.
    for (let k = 0; k < order.length; k++) {
      const mode = order[(i + k) % order.length] as string;
      const sample = await (modes[mode] as () => Promise<Sample>)();
      if (i >= warmup) samples[mode]?.push(sample);
    }
  }
  const stats = Object.fromEntries(
    Object.entries(samples)
      .filter(([, sample]) => sample.length > 0)
      .map(([mode, sample]) => {
        const cpu = sample.map((s) => s.cpuMs).filter((value) => value !== null);
        const asked = sample.flatMap((s) => (s.askedMs === undefined ? [] : [s.askedMs]));
        // The jail-service's answer to that first screenshot (asked → read to its end).
        const capture = sample.flatMap((s) =>
          s.answeredMs === undefined || s.askedMs === undefined ? [] : [s.answeredMs - s.askedMs],
        );
        // From the screenshot's answer to the model's request: the CLI's own work on the image.
        const after = sample.flatMap((s) =>
          s.answeredMs === undefined ? [] : [s.ms - s.answeredMs],
        );
        return [
          mode,
          {
            n: sample.length,
            ms: stat(sample.map((s) => s.ms)),
            cpu_ms: cpu.length ? stat(cpu) : null,
            asked_ms: asked.length ? stat(asked) : null,
            capture_ms: capture.length ? stat(capture) : null,
            after_answer_ms: after.length ? stat(after) : null,
          },
        ];
      }),
  ) as Record<
    string,
    {
      n: number;
      ms: { p50: number; p95: number };
      cpu_ms: { p50: number } | null;
      asked_ms: { p50: number; p95: number } | null;
      capture_ms: { p50: number; p95: number } | null;
      after_answer_ms: { p50: number; p95: number } | null;
    }
  >;
  console.log(JSON.stringify({ entry, before: beforeEntry ?? null, stats }, null, 2));
  const base = stats.node_e0;
  for (const [mode, s] of Object.entries(stats)) {
    if (mode === 'node_e0' || !base) continue;
    const cpu =
      s.cpu_ms && base.cpu_ms ? `; CPU p50 ${s.cpu_ms.p50} ms vs ${base.cpu_ms.p50} ms` : '';
    console.log(
      `${mode}: to first screenshot request p50 ${s.ms.p50} ms, p95 ${s.ms.p95} ms; node -e 0 p50 ${base.ms.p50} ms → +${round(s.ms.p50 - base.ms.p50)} ms, ${round(s.ms.p50 / base.ms.p50)}×${cpu}`,
    );
    if (s.asked_ms)
      console.log(
        `${mode}: to its first GET /screenshot at the jail-service p50 ${s.asked_ms.p50} ms, p95 ${s.asked_ms.p95} ms → +${round(s.asked_ms.p50 - base.ms.p50)} ms over node -e 0`,
      );
    if (s.capture_ms && s.after_answer_ms && s.asked_ms)
      console.log(
        `${mode}: the jail-service answered that screenshot in p50 ${s.capture_ms.p50} ms; from its answer to the model's request p50 ${s.after_answer_ms.p50} ms, p95 ${s.after_answer_ms.p95} ms; without the screenshot's own time +${round(s.ms.p50 - s.capture_ms.p50 - base.ms.p50)} ms over node -e 0`,
      );
  }
} finally {
  front.closeAllConnections();
  front.close();
  await jail.stop();
  await model.close();
  rmSync(dataDir, { recursive: true, force: true });
}

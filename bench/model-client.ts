// npm run bench:model-client — what the model client costs and what it survives. (1) Overhead
// per call: the client (limiter, retry loop, JSON or SSE reading) against a raw fetch of the same
// request to the same fake OpenAI-compatible server on loopback, interleaved in one run, without
// and with streaming. (2) The outage scenario of issue 22 (bench/model-outage.ts), several rounds.
import { createOpenAiCompatibleModel } from '../controlplane/src/agent/model/openai-compatible-model.js';
import { startFaultyChatServer } from '../test/support/faulty-chat-server.js';
import { round, summarise } from './bench-stats.js';
import { runOutageScenario } from './model-outage.js';

const iterations = Number(process.env.BENCH_ITERATIONS ?? 300);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const warmup = 30;

const server = await startFaultyChatServer();
const messages = [{ role: 'user' as const, content: 'Find the lamp and order it' }];
const clientOptions = {
  baseUrl: server.baseUrl,
  model: 'ui-tars-1.5-7b',
  timeoutMs: 10_000,
  retries: 0,
  maxTokens: 1024,
  temperature: 0,
};
const clients = {
  json: createOpenAiCompatibleModel({ ...clientOptions, stream: false }),
  stream: createOpenAiCompatibleModel({
    ...clientOptions,
    stream: true,
    firstTokenTimeoutMs: 5000,
  }),
};
const rawFetch = async (stream: boolean) => {
  const response = await fetch(`${server.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...clientOptions, model: clientOptions.model, messages, stream }),
  });
  if (stream) await response.text();
  else await response.json();
};
const runs = {
  raw_json: () => rawFetch(false),
  client_json: () => clients.json.complete({ messages }),
  raw_stream: () => rawFetch(true),
  client_stream: () => clients.stream.complete({ messages }),
};
type Run = keyof typeof runs;
const samples = Object.fromEntries(
  Object.keys(runs).map((name) => [name, [] as number[]]),
) as Record<Run, number[]>;
try {
  const names = Object.keys(runs) as Run[];
  for (let i = 0; i < warmup + iterations; i++) {
    // Rotate the order so no side always runs on a warmer connection pool.
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length] as Run;
      const started = performance.now();
      await runs[name]();
      if (i >= warmup) samples[name].push(performance.now() - started);
    }
  }
} finally {
  await server.close();
}
const stats = Object.fromEntries(
  Object.entries(samples).map(([name, sample]) => [name, summarise(sample)]),
) as Record<Run, ReturnType<typeof summarise>>;
const overhead = {
  iterations,
  ms: stats,
  ratio_p50_json: round(stats.client_json.p50 / stats.raw_json.p50),
  ratio_p50_stream: round(stats.client_stream.p50 / stats.raw_stream.p50),
  overhead_p50_ms_json: round(stats.client_json.p50 - stats.raw_json.p50),
  overhead_p50_ms_stream: round(stats.client_stream.p50 - stats.raw_stream.p50),
};

const scenario = {
  tasks: 8,
  steps: 6,
  rateLimitedShare: 0.3,
  outage: { startMs: 1000, durationMs: 2000 },
  replyMs: 100,
};
// The same tasks on a server without faults: the wall time the faults add to.
const calm = await runOutageScenario({
  ...scenario,
  rateLimitedShare: 0,
  outage: { startMs: 0, durationMs: 0 },
  seed: 0,
});
const outage: Awaited<ReturnType<typeof runOutageScenario>>[] = [];
for (let seed = 1; seed <= rounds; seed++)
  outage.push(await runOutageScenario({ ...scenario, seed }));

console.log(JSON.stringify({ overhead, scenario, calm, outage }, null, 2));
console.log(
  `client overhead per call p50: JSON ${stats.client_json.p50} ms vs raw fetch ${stats.raw_json.p50} ms → ${overhead.ratio_p50_json}×; SSE ${stats.client_stream.p50} ms vs ${stats.raw_stream.p50} ms → ${overhead.ratio_p50_stream}×`,
);
const sum = (pick: (r: (typeof outage)[number]) => number) =>
  outage.reduce((total, r) => total + pick(r), 0);
console.log(
  `outage (${rounds} rounds × 8 tasks × 6 steps; 30 % 429 Retry-After: 1; 2 s of dropped connections): ` +
    `${sum((r) => r.finished)}/${sum((r) => r.tasks)} finished, ${sum((r) => r.errors.length)} errors, ` +
    `${sum((r) => r.extra_calls)} extra calls for ${sum((r) => r.useful_calls)} useful ` +
    `(${round((100 * sum((r) => r.extra_calls)) / sum((r) => r.useful_calls), 1)} %), ` +
    `${sum((r) => r.retries_reported)} retries reported, most in one task ${Math.max(...outage.map((r) => r.max_retries_one_task))} ` +
    `(budget ${outage[0]?.task_retry_budget}), peak in flight ${Math.max(...outage.map((r) => r.peak_in_flight))} (limit ${outage[0]?.concurrency}), ` +
    `wall ${Math.min(...outage.map((r) => r.wall_ms))}–${Math.max(...outage.map((r) => r.wall_ms))} ms (${calm.wall_ms} ms without faults)`,
);

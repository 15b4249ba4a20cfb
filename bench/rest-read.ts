// npm run bench:rest — 200 concurrent keep-alive clients (a separate process) polling
// GET /v1/tasks/:id of a finished 10-step task on loopback; prints requests/s. Baseline in the
// same run: GET /health (no store access), to show what the store and JSON cost.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { createReplayModel } from '../controlplane/src/agent/model/replay-model.js';
import { createApp } from '../controlplane/src/ingress/http/app.js';
import { createLogger } from '../controlplane/src/logger.js';
import { createTaskService } from '../controlplane/src/tasks/task-service.js';
import { submit } from '../test/support/submit-task.js';
import { createTestTaskDeps } from '../test/support/test-task-deps.js';
import { round } from './bench-stats.js';

const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 200);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const dbDir = mkdtempSync(join(tmpdir(), 'clawdie-bench-rest-'));
const logger = createLogger('silent');
const outputs = [
  ...Array.from(
    { length: 9 },
    () => "Thought: next\nAction: click(start_box='<|box_start|>(644,406)<|box_end|>')",
  ),
  "Action: finished(content='done')",
];
// A SQLite file, not :memory:, so the reads measured pay for the store as in production.
const { deps, repository, close } = createTestTaskDeps({
  model: createReplayModel(outputs),
  databasePath: join(dbDir, 'clawdie.db'),
});
const tasks = createTaskService({ ...deps, logger, newId: () => crypto.randomUUID() });
const { taskId, done } = await submit(tasks, { instruction: 'benchmark task' });
await done;
const app = createApp({
  tasks,
  repository,
  logger,
  defaultMaxSteps: 10,
  describe: () => ({ model: { name: 'replay', replay: true }, jail: { url: 'none' } }),
});
const server = createAdaptorServer({ fetch: app.fetch }) as Server;
server.keepAliveTimeout = 30_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

function load(url: string): Promise<{
  requests: number;
  errors: number;
  seconds: number;
  statuses: Record<string, number>;
}> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'bench/load-client.ts', url, String(concurrency), String(seconds)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load client exited ${code}`)),
    );
  });
}

try {
  const health = await load(`${base}/health`);
  const task = await load(`${base}/v1/tasks/${taskId}`);
  const rate = (r: { requests: number; seconds: number }) => round(r.requests / r.seconds, 0);
  const result = {
    concurrency,
    seconds,
    health_rps: rate(health),
    task_rps: rate(task),
    task_errors: task.errors,
    task_statuses: task.statuses,
    ratio_vs_health: round(rate(task) / rate(health)),
  };
  console.log(JSON.stringify(result, null, 2));
  console.log(
    `GET /v1/tasks/:id with ${concurrency} concurrent clients: ${result.task_rps} req/s (target ≥ 5000); GET /health: ${result.health_rps} req/s`,
  );
} finally {
  server.closeAllConnections();
  server.close();
  await tasks.close();
  close();
}

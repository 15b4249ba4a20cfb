// node --conditions=source --import tsx bench/mcp-overhead.ts — what MCP adds to one
// browser_run_task call: the same 3-step replay task (fake operator, no browser) run directly with
// `tasks.start().done`, through an MCP client over the in-memory transport, and over streamable
// HTTP on 127.0.0.1 (stateless /mcp), interleaved in one run. Prints p50/p90 and the ratios.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Hono } from 'hono';
import { loopbackPrincipal } from '../controlplane/src/governance/auth/scopes.js';
import { createMcpRoutes } from '../controlplane/src/ingress/mcp/http-routes.js';
import { createMcpServer } from '../controlplane/src/ingress/mcp/mcp-server.js';
import { clickThenFinish, createTestTasks } from '../test/controlplane/ingress/mcp/mcp-fixture.js';
import { silentLogger } from '../test/support/silent-logger.js';
import { submit } from '../test/support/submit-task.js';
import { round, summarise } from './bench-stats.js';

const iterations = Number(process.env.BENCH_ITERATIONS ?? 50);
const warmup = 5;
const modes = ['direct', 'mcp_in_memory', 'mcp_http'] as const;
type Mode = (typeof modes)[number];

// Tasks run one at a time and each uses exactly 3 replies, so one long replay serves them all.
const runs = (iterations + warmup) * modes.length;
const fixture = createTestTasks({
  outputs: Array.from({ length: runs }, () => clickThenFinish).flat(),
});
const deps = { tasks: fixture.tasks, logger: silentLogger, defaultMaxSteps: fixture.maxSteps };
const input = { instruction: 'read the answer' };

const memoryClient = new Client({ name: 'bench', version: '0' });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await Promise.all([
  createMcpServer(deps, loopbackPrincipal).connect(serverSide),
  memoryClient.connect(clientSide),
]);

const app = new Hono();
app.route('/mcp', createMcpRoutes(deps));
const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
  const listening = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () =>
    resolve(listening),
  );
});
const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
const httpClient = new Client({ name: 'bench', version: '0' });
await httpClient.connect(new StreamableHTTPClientTransport(url));

const callTool = async (client: Client) => {
  const result = await client.callTool({ name: 'browser_run_task', arguments: input }, undefined, {
    onprogress: () => undefined,
  });
  return (result.structuredContent as { status: string }).status;
};
const run: Record<Mode, () => Promise<string>> = {
  direct: async () => (await (await submit(fixture.tasks, input, () => undefined)).done).status,
  mcp_in_memory: () => callTool(memoryClient),
  mcp_http: () => callTool(httpClient),
};

const samples: Record<Mode, number[]> = { direct: [], mcp_in_memory: [], mcp_http: [] };
try {
  for (let i = 0; i < warmup + iterations; i++) {
    // Rotate the order so no mode always runs first.
    for (let k = 0; k < modes.length; k++) {
      const mode = modes[(i + k) % modes.length] as Mode;
      const started = performance.now();
      const status = await run[mode]();
      const elapsed = performance.now() - started;
      if (status !== 'finished') throw new Error(`${mode}: task ended ${status}`);
      if (i >= warmup) samples[mode].push(elapsed);
    }
  }
  const stats = {
    direct: summarise(samples.direct),
    mcp_in_memory: summarise(samples.mcp_in_memory),
    mcp_http: summarise(samples.mcp_http),
  };
  console.log(JSON.stringify({ iterations, steps_per_task: 3, ms: stats }, null, 2));
  for (const mode of ['mcp_in_memory', 'mcp_http'] as const) {
    console.log(
      `${mode}: p50 ${stats[mode].p50} ms vs direct ${stats.direct.p50} ms → ${round(stats[mode].p50 / stats.direct.p50)}× (+${round(stats[mode].p50 - stats.direct.p50)} ms per call)`,
    );
  }
} finally {
  await memoryClient.close();
  await httpClient.close();
  await fixture.close();
  server.close();
  if ('closeAllConnections' in server) server.closeAllConnections();
}

// Shared by the child services the controlplane may start itself (a local jail-service, hostd):
// how to run a workspace entry, a free loopback port, and waiting for a healthy answer.
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type PollHealthResult, pollHealth } from '@clawdie/kit/timing';
import type { LaunchedProcess } from '../../platform/runner/process-launcher.js';

/** Runs a workspace's compiled entry in production, its TypeScript source under tsx in development. */
export function nodeEntryArgv(specifier: string): [string, ...string[]] {
  const entry = fileURLToPath(import.meta.resolve(specifier));
  if (!entry.endsWith('.ts')) return [process.execPath, entry];
  return [process.execPath, '--conditions=source', '--import', import.meta.resolve('tsx'), entry];
}

/** The one health poller with the controlplane's pace: every 100 ms, 2 s per request. */
export function waitForHealth(
  url: string,
  token: string,
  child: LaunchedProcess,
  timeoutMs: number,
): Promise<PollHealthResult> {
  const exited = child.exited;
  return pollHealth({ url, token, exited, timeoutMs, intervalMs: 100, requestTimeoutMs: 2000 });
}

/** Asks the kernel for a free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

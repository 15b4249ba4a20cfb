// Shared by the child services the controlplane may start itself (a local jail-service, hostd):
// how to run a workspace entry, a free loopback port, and waiting for a healthy answer.
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { LaunchedProcess } from '../runner/process-launcher.js';

/** Runs a workspace's compiled entry in production, its TypeScript source under tsx in development. */
export function nodeEntryArgv(specifier: string): [string, ...string[]] {
  const entry = fileURLToPath(import.meta.resolve(specifier));
  if (!entry.endsWith('.ts')) return [process.execPath, entry];
  return [process.execPath, '--conditions=source', '--import', import.meta.resolve('tsx'), entry];
}

/** Polls `GET <url>/health` with the bearer token until it answers 200, the child exits, or time runs out. */
export async function waitForHealth(
  url: string,
  token: string,
  child: LaunchedProcess,
  timeoutMs: number,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void child.exited.then(() => {
    exited = true;
  });
  let lastError = 'no answer yet';
  while (Date.now() < deadline) {
    if (exited) return { ok: false, reason: 'the process exited' };
    try {
      const response = await fetch(`${url}/health`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(2000),
      });
      if (response.ok) return { ok: true };
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { ok: false, reason: `no healthy answer within ${timeoutMs} ms (${lastError})` };
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

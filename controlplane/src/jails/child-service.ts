// Shared by the child services the controlplane may start itself (a local jail-service, hostd):
// how to run a workspace entry and a free loopback port (waiting for health: `pollHealth`).
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** Runs a workspace's compiled entry in production, its TypeScript source under tsx in development. */
export function nodeEntryArgv(specifier: string): [string, ...string[]] {
  const entry = fileURLToPath(import.meta.resolve(specifier));
  if (!entry.endsWith('.ts')) return [process.execPath, entry];
  return [process.execPath, '--conditions=source', '--import', import.meta.resolve('tsx'), entry];
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

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { markRunning } from '@clawdie/kit/runner';
import { createAdaptorServer } from '@hono/node-server';
import { createControlplane } from './composition/create-controlplane.js';
import { realAdapters } from './composition/real-adapters.js';
import { type Config, loadConfig, processEnv } from './config.js';
import { AppError } from './errors.js';
import { printLine } from './ingress/cli/cli-output.js';
import { printServerBanner, runServerDemo } from './ingress/cli/server-banner.js';
import { createControlplaneLauncher } from './platform/runner/process-launcher.js';

/**
 * `npm start`: the controlplane HTTP API on CLAWDIE_HOST:CLAWDIE_PORT, with its browsers from hostd
 * (CLAWDIE_HOSTD_URL, or a hostd it starts itself as root on Linux or FreeBSD: a fresh clone per task), else
 * from CLAWDIE_JAIL_URL or a local jail-service. Without a model it runs the labelled replay demo.
 * Resolves with the exit code after SIGINT/SIGTERM, once everything is closed.
 */
export async function serve(): Promise<number> {
  const env = processEnv();
  const config = loadConfig(env);
  // Before anything starts (Chromium, the jail-service, hostd): a port in use refuses the start.
  await assertPortFree(config.host, config.port);
  const adapters = realAdapters(config, env, createControlplaneLauncher());
  // From here until it has stopped, the bootstrap installs and rebuilds nothing in this checkout:
  // this process still loads code from it (docs/operations.md, "Upgrade in this order").
  const running = markRunning('server');
  if (running.failure) {
    adapters.logger.warn(
      { marker: running.path, reason: running.failure },
      'could not record this server as running: a bootstrap of this checkout will not see it',
    );
  }
  try {
    return await serveUntilStopped(config, adapters);
  } finally {
    running.remove();
  }
}

/** Starts the controlplane and listens; resolves with 0 once a signal stopped and closed it. */
async function serveUntilStopped(
  config: Readonly<Config>,
  adapters: ReturnType<typeof realAdapters>,
): Promise<number> {
  const controlplane = await createControlplane(config, adapters);
  const server = createAdaptorServer({ fetch: controlplane.app.fetch }) as Server;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (error) {
    await controlplane.close();
    throw error;
  }
  const url = `http://${config.host}:${(server.address() as AddressInfo).port}`;
  await controlplane.listening(url);
  printServerBanner(controlplane, url);

  const stop = new AbortController();
  const demo = runServerDemo(controlplane, stop.signal);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  printLine('shutting down ...');
  stop.abort();
  await controlplane.tasks.close();
  await demo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await controlplane.close();
  return 0;
}

/** The start is refused before anything runs: the configured port is taken. */
export class PortInUseError extends AppError {
  constructor(host: string, port: number, reason: string) {
    super(
      'PORT_IN_USE',
      `${host}:${port} cannot be listened on (${reason}): another process has it — stop it, or set CLAWDIE_PORT`,
      { status: 500 },
    );
    this.name = 'PortInUseError';
  }
}

/** Listens on `host:port` and closes again; rejects with PortInUseError when it cannot. */
async function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(new PortInUseError(host, port, error.code ?? error.message)),
    );
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

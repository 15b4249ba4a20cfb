import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { AppError } from '../errors.js';
import { type LaunchedProcess, launchProcess } from '../runner/process-launcher.js';

export interface LocalJailService {
  url: string;
  token: string;
  process: LaunchedProcess;
  stop(): Promise<void>;
}

export interface LocalJailOptions {
  /** Environment passed through to the jail-service (Chromium path, viewport, …). */
  env: Record<string, string | undefined>;
  logger: Logger;
  startTimeoutMs?: number;
}

/**
 * Starts a jail-service as a child process on 127.0.0.1 with a fresh random token and waits until
 * it answers /health. Used by `npm start` and the CLI on a single host until hostd hands out
 * clones. Rejects with JAIL_START_FAILED (including the child's last stderr lines) on failure.
 */
export async function startLocalJailService(options: LocalJailOptions): Promise<LocalJailService> {
  const token = randomBytes(24).toString('hex');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = await launchProcess({
    argv: jailServiceArgv(),
    env: {
      ...options.env,
      CLAWDIE_JAIL_TOKEN: token,
      CLAWDIE_JAIL_TOKEN_FILE: undefined,
      CLAWDIE_JAIL_HOST: '127.0.0.1',
      CLAWDIE_JAIL_PORT: String(port),
    },
    onStderrLine: (line) => options.logger.debug({ jailService: line }, 'jail-service log'),
  });
  const ready = await waitForHealth(url, token, child, options.startTimeoutMs ?? 30_000);
  if (!ready.ok) {
    await child.stop(1000);
    throw new AppError(
      'JAIL_START_FAILED',
      `local jail-service did not start: ${ready.reason}\n${child.stderrTail()}`,
    );
  }
  options.logger.info({ url, pid: child.pid }, 'local jail-service ready');
  return { url, token, process: child, stop: () => child.stop() };
}

/** Runs the compiled service in production, the TypeScript source under tsx in development. */
function jailServiceArgv(): [string, ...string[]] {
  const entry = fileURLToPath(import.meta.resolve('@clawdie/jail-service/main'));
  if (!entry.endsWith('.ts')) return [process.execPath, entry];
  return [process.execPath, '--conditions=source', '--import', import.meta.resolve('tsx'), entry];
}

async function waitForHealth(
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
function freePort(): Promise<number> {
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

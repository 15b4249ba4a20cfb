import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { AppError } from '../errors.js';
import { type LaunchedProcess, launchProcess } from '../runner/process-launcher.js';
import { freePort, nodeEntryArgv, waitForHealth } from './child-service.js';

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
    argv: nodeEntryArgv('@clawdie/jail-service/main'),
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

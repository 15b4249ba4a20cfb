// Composition root: config → logger → browser + app → listen; closes on SIGINT/SIGTERM, and with
// CLAWDIE_JAIL_STOP_WITH_PARENT on EOF of stdin (the parent that holds the pipe died). Chromium
// runs over a pipe, so it also exits when this process dies without cleaning up. Chromium starts
// first, and the rest of the service (puppeteer, hono, the tools) loads while it does.
import { onStopSignals } from '@clawdie/kit/stop-signals';
import { loadConfig, processEnvironment } from './config.js';
import { ConfigError } from './errors.js';
import { createLogger } from './logger.js';
import { spawnEarlyChromium } from './runner/early-chromium.js';
import type { JailService } from './server.js';

/** After this long closing, the process exits anyway. */
const CLOSE_DEADLINE_MS = 15_000;

/** Starts the service; resolves once it listens. A bad configuration sets exit code 2; a failed start exits 1. */
export async function runService(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(processEnvironment());
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    createLogger('info').fatal({ code: error.code }, error.message);
    process.exitCode = 2;
    return;
  }
  // Before anything slow loads: Chromium's start overlaps the service's own (early-chromium.ts).
  const early = config.cdpUrl
    ? null
    : spawnEarlyChromium({ ...config, sandbox: config.chromiumSandbox, env: config.chromiumEnv });
  const logger = createLogger(config.logLevel);
  let service: JailService | undefined;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    // A close that hangs must not keep a service nobody owns alive: Chromium follows our exit.
    setTimeout(() => process.exit(1), CLOSE_DEADLINE_MS).unref();
    void (service?.close() ?? Promise.resolve())
      .catch((error: unknown) => logger.error({ err: error }, 'close failed'))
      .finally(() => process.exit(0));
  };
  onStopSignals(stop, config.stopWithParent);
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception');
    void (service?.close() ?? Promise.resolve()).finally(() => process.exit(1));
  });

  try {
    const { startJailService } = await import('./server.js');
    service = await startJailService(config, logger, {}, early);
  } catch (error) {
    // startJailService closed what it opened. Exit now: the stdin watcher (stopWithParent) would
    // keep a service that never listened alive until its parent gave up waiting for /health.
    // The logger is synchronous, so the line is written before the exit.
    logger.fatal({ err: error }, 'jail-service failed to start');
    process.exit(1);
  }
  if (stopping) {
    await service.close();
    return;
  }
  // How the bundle's code was compiled (scripts/bundle-loader.mjs); absent when not bundled.
  const codeCache =
    (globalThis as { __clawdieCodeCache?: string }).__clawdieCodeCache ?? 'not bundled';
  logger.info(
    { url: service.url, viewport: config.viewport, chromium: config.chromiumPath, codeCache },
    'jail-service listening',
  );
}

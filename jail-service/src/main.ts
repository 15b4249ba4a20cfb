#!/usr/bin/env node
// Composition root: config → logger → browser + app → listen; closes on SIGINT/SIGTERM.
// Chromium runs over a pipe, so it also exits when this process dies without cleaning up.
import { loadConfig, processEnvironment } from './config.js';
import { ConfigError } from './errors.js';
import { createLogger } from './logger.js';
import { type JailService, startJailService } from './server.js';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(processEnvironment());
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    createLogger('info').fatal({ code: error.code }, error.message);
    process.exitCode = 2;
    return;
  }
  const logger = createLogger(config.logLevel);
  let service: JailService | undefined;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    void (service?.close() ?? Promise.resolve())
      .catch((error: unknown) => logger.error({ err: error }, 'close failed'))
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception');
    void (service?.close() ?? Promise.resolve()).finally(() => process.exit(1));
  });

  try {
    service = await startJailService(config, logger);
  } catch (error) {
    logger.fatal({ err: error }, 'jail-service failed to start');
    process.exitCode = 1;
    return;
  }
  if (stopping) {
    await service.close();
    return;
  }
  logger.info({ url: service.url, viewport: config.viewport }, 'jail-service listening');
}

void main().catch((error: unknown) => {
  process.stderr.write(`jail-service: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

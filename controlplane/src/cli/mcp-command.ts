import { loadConfig, processEnv } from '../config.js';
import { createLogger } from '../logger.js';
import { runMcpStdio } from '../mcp/stdio.js';
import { claimDataDirAt } from '../ownership/data-dir-owner.js';
import { startPlatform } from '../platform.js';
import { createControlplaneLauncher } from '../runner/process-launcher.js';
import { createUnavailableTaskService } from '../tasks/unavailable-task-service.js';

/**
 * `clawdie mcp`: browser_run_task over MCP stdio. stdout carries only protocol; logs go to
 * stderr. Returns when stdin closes or on SIGINT/SIGTERM, after aborting running tasks.
 */
export async function runMcpCommand(): Promise<number> {
  const env = processEnv();
  const config = loadConfig({ CLAWDIE_LOG_LEVEL: 'warn', ...env });
  const logger = createLogger(config.logLevel);
  // Refused (exit 2, naming the server) while a server runs on this data directory.
  const owner = claimDataDirAt(config.databasePath, {
    kind: 'mcp',
    dataDir: config.dataDir,
    logger,
  });
  const platform = await startPlatform(config, logger, env, {
    launcher: createControlplaneLauncher(),
    owner,
  });
  const tasks = platform.model
    ? platform.createTasks(platform.model)
    : createUnavailableTaskService();
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  try {
    await runMcpStdio(
      { tasks, logger, defaultMaxSteps: config.loop.maxSteps },
      { signal: stop.signal },
    );
  } finally {
    await tasks.close();
    await platform.close();
  }
  return 0;
}

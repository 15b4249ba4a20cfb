import { createControlplane } from '../../composition/create-controlplane.js';
import { realAdapters } from '../../composition/real-adapters.js';
import { loadConfig, processEnv } from '../../config.js';
import { AppError } from '../../errors.js';
import { createControlplaneLauncher } from '../../platform/runner/process-launcher.js';
import { createArtifactFiles } from '../../platform/store/artifact-files.js';
import { runMcpStdio } from '../mcp/stdio.js';
import { answerWithRefusal } from '../mcp/stdio-refusal.js';
import { printLine } from './cli-output.js';

/**
 * `clawdie mcp`: browser_run_task over MCP stdio. stdout carries only protocol; logs go to
 * stderr. Returns when stdin closes or on SIGINT/SIGTERM, after aborting running tasks.
 */
export async function runMcpCommand(): Promise<number> {
  const env = processEnv();
  let started: Awaited<ReturnType<typeof start>>;
  try {
    started = await start(env);
  } catch (error) {
    // Refused (exit 2): a server runs on this data directory, a bad setting. The client is told
    // why in its `initialize` answer, not only on stderr.
    const message = `clawdie mcp cannot start: ${(error as Error).message}`;
    const code = error instanceof AppError ? error.code : 'STARTUP_FAILED';
    printLine(message);
    await answerWithRefusal(message, code, { input: process.stdin, output: process.stdout });
    return 2;
  }
  const { config, adapters, controlplane } = started;
  const { tasks } = controlplane;
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  try {
    await runMcpStdio(
      {
        tasks,
        logger: adapters.logger,
        defaultMaxSteps: config.loop.maxSteps,
        artifacts: {
          repository: controlplane.repository,
          files: createArtifactFiles(config.dataDir),
        },
      },
      { signal: stop.signal },
    );
  } finally {
    await controlplane.close();
  }
  return 0;
}

async function start(env: ReturnType<typeof processEnv>) {
  const config = loadConfig({ CLAWDIE_LOG_LEVEL: 'warn', ...env });
  const adapters = realAdapters(config, env, createControlplaneLauncher());
  const controlplane = await createControlplane(config, adapters, { role: 'mcp' });
  return { config, adapters, controlplane };
}

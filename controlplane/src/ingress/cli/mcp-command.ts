import { createControlplane } from '../../composition/create-controlplane.js';
import { realAdapters } from '../../composition/real-adapters.js';
import { loadConfig, processEnv } from '../../config.js';
import { createControlplaneLauncher } from '../../platform/runner/process-launcher.js';
import { createArtifactFiles } from '../../platform/store/artifact-files.js';
import { runMcpStdio } from '../mcp/stdio.js';

/**
 * `clawdie mcp`: browser_run_task over MCP stdio. stdout carries only protocol; logs go to
 * stderr. Returns when stdin closes or on SIGINT/SIGTERM, after aborting running tasks.
 */
export async function runMcpCommand(): Promise<number> {
  const env = processEnv();
  const config = loadConfig({ CLAWDIE_LOG_LEVEL: 'warn', ...env });
  const adapters = realAdapters(config, env, createControlplaneLauncher());
  // Refused (exit 2, naming the server) while a server runs on this data directory.
  const controlplane = await createControlplane(config, adapters, { role: 'mcp' });
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

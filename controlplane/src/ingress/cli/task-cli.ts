// `clawdie run` and `clawdie demo`: one controlplane in the `cli` role (no app, no listening), one
// task on it, its progress on stderr and the compact result on stdout. Loaded by the entry only
// for these two commands, so the others never pay for the composition root.
import type { Controlplane } from '../../composition/create-controlplane.js';
import { createControlplane } from '../../composition/create-controlplane.js';
import { realAdapters } from '../../composition/real-adapters.js';
import { loadConfig, processEnv } from '../../config.js';
import { AppError } from '../../errors.js';
import { createControlplaneLauncher } from '../../platform/runner/process-launcher.js';
import type { CompactResult } from '../../tasks/task-input.js';
import { createProgressPrinter, printLine, printResult } from './cli-output.js';
import type { Command } from './command.js';
import { runTaskCommand } from './run-command.js';

type TaskCommand = Extract<Command, { name: 'run' | 'demo' }>;

/** Runs `command` to its end; resolves with the exit code (0 finished, 1 any other end). */
export async function runTaskCli(command: TaskCommand): Promise<number> {
  const env = processEnv();
  // The CLI prints its own progress; JSON logs only for warnings unless asked for more.
  const config = loadConfig({ CLAWDIE_LOG_LEVEL: 'warn', ...env });
  if (command.name === 'run' && !config.model.url && !config.model.replayFile) {
    throw new AppError(
      'MODEL_NOT_CONFIGURED',
      'no model configured: set CLAWDIE_MODEL_URL (and CLAWDIE_MODEL_NAME) or CLAWDIE_REPLAY_FILE, or try `clawdie demo`',
    );
  }
  // Refused (exit 2, naming the server) while a server runs on this data directory.
  const controlplane = await createControlplane(
    config,
    realAdapters(config, env, createControlplaneLauncher()),
    { role: 'cli' },
  );
  const controller = new AbortController();
  const onSignal = () => {
    printLine('interrupted: aborting the task ...');
    controller.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const result = await runCommand(command, controlplane, controller.signal);
    printResult(result);
    return result.status === 'finished' ? 0 : 1;
  } finally {
    await controlplane.close();
  }
}

async function runCommand(
  command: TaskCommand,
  controlplane: Controlplane<null>,
  signal: AbortSignal,
): Promise<CompactResult> {
  if (command.name === 'demo') {
    const { demoBanner, runDemo } = await import('./demo-command.js');
    if (!command.json) printLine(demoBanner);
    const onEvent = command.json ? undefined : createProgressPrinter(15);
    const { result, expected } = await runDemo(controlplane.createTasks, {
      signal,
      ...(onEvent ? { onEvent } : {}),
    });
    if (!command.json) printLine(`expected answer: ${expected}`);
    return result;
  }
  if (!controlplane.model) throw new AppError('MODEL_NOT_CONFIGURED', 'no model configured');
  if (controlplane.model.isReplay && !command.json)
    printLine('REPLAY: model replies come from CLAWDIE_REPLAY_FILE');
  const onEvent = command.json
    ? undefined
    : createProgressPrinter(command.input.max_steps ?? controlplane.config.loop.maxSteps);
  // The same policed TaskService as the API: tenant admission and the action gate apply.
  return runTaskCommand(command.input, controlplane.tasks, {
    tenant: command.tenant,
    signal,
    onEvent,
  });
}

#!/usr/bin/env node
import { type Controlplane, createControlplane } from './composition/create-controlplane.js';
import { realAdapters } from './composition/real-adapters.js';
import { loadConfig, processEnv } from './config.js';
import { AppError } from './errors.js';
import { runAdminCommand } from './ingress/cli/admin-commands.js';
// `clawdie` CLI: run a task, run the replay demo, or serve the controlplane.
import { parseCommand } from './ingress/cli/args.js';
import { runAuditVerify } from './ingress/cli/audit-command.js';
import { runBackupCommand, runRestoreCommand } from './ingress/cli/backup-command.js';
import {
  createProgressPrinter,
  printHelp,
  printLine,
  printResult,
} from './ingress/cli/cli-output.js';
import type { Command } from './ingress/cli/command.js';
import { demoBanner, runDemo } from './ingress/cli/demo-command.js';
import { runMcpCommand } from './ingress/cli/mcp-command.js';
import { runTaskCommand } from './ingress/cli/run-command.js';
import { runSessionCommand } from './ingress/cli/session-command.js';
import { UsageError } from './ingress/cli/usage-error.js';
import { createControlplaneLauncher } from './platform/runner/process-launcher.js';
import { serve } from './server.js';
import type { CompactResult } from './tasks/task-input.js';

async function main(argv: string[]): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    printLine(`${error.where}: ${error.message}\n\n${error.usage}`);
    return 2;
  }
  if (command.name === 'help') {
    printHelp(command.text);
    return 0;
  }
  if (command.name === 'serve') return serve();
  if (command.name === 'mcp') return runMcpCommand();

  const env = processEnv();
  if (command.name === 'audit-verify') return runAuditVerify(loadConfig(env), command.json);
  if (command.name === 'backup' || command.name === 'restore') {
    // --data-dir stands for CLAWDIE_DATA_DIR (the key files follow it unless set on their own).
    const config = loadConfig({
      ...env,
      ...(command.dataDir ? { CLAWDIE_DATA_DIR: command.dataDir } : {}),
    });
    return command.name === 'backup'
      ? runBackupCommand(command, config)
      : runRestoreCommand(command, config);
  }
  if (
    command.name === 'keys-rotate' ||
    command.name === 'token-create' ||
    command.name === 'secret-set'
  ) {
    return runAdminCommand(command, loadConfig(env));
  }
  if (
    command.name === 'session-list' ||
    command.name === 'session-save' ||
    command.name === 'session-revoke'
  )
    return runSessionCommand(command, loadConfig(env));
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
    {
      role: 'cli',
    },
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
  command: Extract<Command, { name: 'run' | 'demo' }>,
  controlplane: Controlplane,
  signal: AbortSignal,
): Promise<CompactResult> {
  if (command.name === 'demo') {
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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    printLine(
      `clawdie: ${error instanceof AppError ? `${error.code}: ` : ''}${(error as Error).message}`,
    );
    process.exitCode = 2;
  },
);

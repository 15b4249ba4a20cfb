// `clawdie` CLI: run a task, run the replay demo, serve the controlplane, or one admin command.
// Started by cli.ts (compiled or from source) or by the bundle (bundle-entry.ts).
// Only parsing is loaded up front: each command imports what it needs when it runs, so
// `clawdie run` never loads the HTTP app, the MCP SDK, the dashboard or the Telegram bot
// (test/controlplane/ingress/cli/cli-lazy-imports.test.ts holds this).
import { AppError } from './errors.js';
import { parseCommand } from './ingress/cli/args.js';
import { printHelp, printLine } from './ingress/cli/cli-output.js';
import type { Command } from './ingress/cli/command.js';
import { UsageError } from './ingress/cli/usage-error.js';

async function main(argv: string[]): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    printLine(`${error.where}: ${error.message}\n\n${error.usage}`);
    return 2;
  }
  switch (command.name) {
    case 'help':
      printHelp(command.text);
      return 0;
    case 'run':
    case 'demo':
      return (await import('./ingress/cli/task-cli.js')).runTaskCli(command);
    case 'serve':
      return (await import('./server.js')).serve();
    case 'mcp':
      return (await import('./ingress/cli/mcp-command.js')).runMcpCommand();
    default:
      return runConfigured(command);
  }
}

/** The commands that work on the data directory without a controlplane. */
async function runConfigured(
  command: Exclude<Command, { name: 'help' | 'run' | 'demo' | 'serve' | 'mcp' }>,
): Promise<number> {
  const { loadConfig, processEnv } = await import('./config.js');
  const env = processEnv();
  switch (command.name) {
    case 'audit-verify':
      return (await import('./ingress/cli/audit-command.js')).runAuditVerify(
        loadConfig(env),
        command.json,
      );
    case 'backup':
    case 'restore': {
      // --data-dir stands for CLAWDIE_DATA_DIR (the key files follow it unless set on their own).
      const config = loadConfig({
        ...env,
        ...(command.dataDir ? { CLAWDIE_DATA_DIR: command.dataDir } : {}),
      });
      const backup = await import('./ingress/cli/backup-command.js');
      return command.name === 'backup'
        ? backup.runBackupCommand(command, config)
        : backup.runRestoreCommand(command, config);
    }
    case 'keys-rotate':
    case 'token-create':
    case 'secret-set':
      return (await import('./ingress/cli/admin-commands.js')).runAdminCommand(
        command,
        loadConfig(env),
      );
    case 'session-list':
    case 'session-save':
    case 'session-revoke':
      return (await import('./ingress/cli/session-command.js')).runSessionCommand(
        command,
        loadConfig(env),
      );
    case 'hosts-list':
    case 'hosts-add':
    case 'hosts-drain':
    case 'hosts-resume':
    case 'hosts-remove':
      return (await import('./ingress/cli/hosts-command.js')).runHostsCommand(
        command,
        loadConfig(env),
      );
  }
}

/** Runs one command line; its exit code goes to process.exitCode. */
export async function runCli(argv: string[]): Promise<void> {
  try {
    process.exitCode = await main(argv);
  } catch (error) {
    printLine(
      `clawdie: ${error instanceof AppError ? `${error.code}: ` : ''}${(error as Error).message}`,
    );
    process.exitCode = 2;
  }
}

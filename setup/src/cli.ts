// `clawdie setup`: parses flags, builds the steps for the host OS and runs them with the real
// command runner. Exit code 0 when every required step is done (or planned, with --dry-run).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HostdConfig, JailDriver } from '@clawdie/hostd/host-kit';
import {
  ChildRegistry,
  type CommandRunner,
  ExecFileRunner,
  type ProcessLauncher,
  SpawnLauncher,
} from '@clawdie/kit/runner';
import { printError, printEvent, printSummary, printText, printUsage } from './cli-output.js';
import { loadSetupConfig, processEnvironment, type SetupConfig } from './config.js';
import { runSetup } from './run-setup.js';
import { checkFlagsForOs, parseSetupArgs, USAGE } from './setup-args.js';
import { freeBsdLogSteps } from './steps/freebsd-logs.js';
import { freeBsdPrerequisites } from './steps/freebsd-prerequisites.js';
import { freeBsdTemplateSteps } from './steps/freebsd-template.js';
import { linuxSteps } from './steps/linux-steps.js';
import type { SetupStep } from './steps/step.js';
import { runVerifyHost } from './verify/run-verify.js';
import { formatReport } from './verify/verify-report.js';

/** The steps for the configured OS, in order. */
export function setupSteps(config: SetupConfig): SetupStep[] {
  return config.os === 'freebsd'
    ? [
        ...freeBsdPrerequisites(config.freebsd),
        ...freeBsdTemplateSteps(config.freebsd),
        ...freeBsdLogSteps(config.freebsd),
      ]
    : linuxSteps(config.linux);
}

export interface CliDeps {
  env: Readonly<Record<string, string | undefined>>;
  platform: string;
  runner: CommandRunner;
  /** Starts `--verify-host`'s clone processes; the entry builds it over the process's one registry. */
  launcher?: ProcessLauncher;
  repoRoot: string;
  /** `--verify-host` only: replaces hostd's driver selection (tests). */
  verifyDriver?: (config: HostdConfig) => JailDriver;
  /** `--verify-host` only: extra report notes (tests: what a fake host cannot show). */
  verifyNotes?: readonly string[];
}

/** Runs the CLI; returns the process exit code. */
export async function main(args: readonly string[], deps: CliDeps): Promise<number> {
  let config: SetupConfig;
  try {
    const parsed = parseSetupArgs(args);
    if (parsed.mode === 'help') {
      printUsage(USAGE);
      return 0;
    }
    if (parsed.mode === 'verify-host') return await verifyHost(deps);
    config = loadSetupConfig(deps.env, parsed.flags, deps.platform, deps.repoRoot);
    checkFlagsForOs(parsed.flags, config.os);
  } catch (error) {
    printError(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const result = await runSetup(
    setupSteps(config),
    { runner: deps.runner, config },
    {
      dryRun: config.dryRun,
      emit: printEvent,
    },
  );
  printSummary(result, config.dryRun);
  return result.ok ? 0 : 1;
}

/** `--verify-host`: the report on stdout; 0 only when every check passed, 2 on a bad config. */
async function verifyHost(deps: CliDeps): Promise<number> {
  try {
    const report = await runVerifyHost({
      env: deps.env,
      ...(deps.launcher ? { launcher: deps.launcher } : {}),
      ...(deps.verifyDriver ? { createDriver: deps.verifyDriver } : {}),
      ...(deps.verifyNotes ? { notes: deps.verifyNotes } : {}),
    });
    printText(formatReport(report));
    return report.ok ? 0 : 1;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    printError(`--verify-host: ${(error as Error).message}`);
    return code === 'CONFIG_INVALID' ? 2 : 1;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const code = await main(process.argv.slice(2), {
    env: processEnvironment(),
    platform: process.platform,
    runner: new ExecFileRunner(),
    launcher: new SpawnLauncher(new ChildRegistry()),
    repoRoot,
  });
  process.exitCode = code;
}

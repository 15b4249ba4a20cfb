// One setup step: `check()` observes the host (read-only commands only) and returns what is
// missing as a plan of argv arrays; the runner applies the plan and checks again, because some
// tools (Bastille) exit 0 without doing the work.

import type { CommandRunner, RunResult } from '@clawdie/kit/runner';
import type { SetupConfig } from '../config.js';

export type Argv = readonly string[];

export interface PlanCommand {
  argv: Argv;
  /** The tool's exit code is unreliable (freebsd-jails.md §1.6): ignore it, the re-check decides. */
  unreliableExit?: boolean;
}

export interface StepCheck {
  /** True when nothing needs doing. */
  done: boolean;
  /** What was observed, for the user. */
  detail: string;
  /** Commands that would make the step done; empty when only a human can fix it (see `hint`). */
  plan: PlanCommand[];
  /** What to do by hand when the plan is empty or cannot be run here. */
  hint?: string;
  /** `recommended`: a failure is a warning (the platform falls back to weaker isolation). */
  severity?: 'required' | 'recommended';
}

export interface StepContext {
  runner: CommandRunner;
  config: SetupConfig;
}

export interface SetupStep {
  readonly id: string;
  readonly title: string;
  check(context: StepContext): Promise<StepCheck>;
}

const CHECK_TIMEOUT_MS = 30_000;

/** Runs a read-only check command; a program that cannot be started counts as exit 127. */
export async function probe(context: StepContext, argv: Argv): Promise<RunResult> {
  try {
    return await context.runner.run(argv, { timeoutMs: CHECK_TIMEOUT_MS });
  } catch (error) {
    return { exitCode: 127, stdout: '', stderr: (error as Error).message, durationMs: 0 };
  }
}

/** A prerequisite a human must satisfy: a command whose output must pass `accept`. */
export function prerequisite(options: {
  id: string;
  title: string;
  argv: Argv;
  accept: (result: RunResult) => boolean;
  hint: string;
  severity?: 'required' | 'recommended';
}): SetupStep {
  return {
    id: options.id,
    title: options.title,
    async check(context) {
      const result = await probe(context, options.argv);
      const done = options.accept(result);
      const seen = (result.stdout.trim() || result.stderr.trim()).split('\n')[0] ?? '';
      return {
        done,
        detail: `${options.argv.join(' ')} → exit ${result.exitCode}${seen ? `: ${seen}` : ''}`,
        plan: [],
        hint: options.hint,
        severity: options.severity ?? 'required',
      };
    },
  };
}

/** A step that is done when `argv` exits 0 (non-zero with `absent`) and otherwise runs `plan`. */
export function ensure(options: {
  id: string;
  title: string;
  argv: Argv;
  plan: PlanCommand[];
  absent?: boolean;
}): SetupStep {
  return {
    id: options.id,
    title: options.title,
    async check(context) {
      const result = await probe(context, options.argv);
      const done = (result.exitCode === 0) !== (options.absent ?? false);
      return {
        done,
        detail: `${options.argv.join(' ')} → exit ${result.exitCode}`,
        plan: options.plan,
      };
    },
  };
}

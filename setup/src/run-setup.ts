// Runs setup steps in order: check → (plan) → apply → check again. Idempotent: a step whose check
// passes runs nothing. With `dryRun` nothing but read-only checks runs and every command that
// would run is reported. Progress is reported as events (house-style §3.13 "loops as events").
import type { Argv, SetupStep, StepCheck, StepContext } from './steps/step.js';

export type StepOutcome = 'done' | 'applied' | 'planned' | 'warned' | 'failed';

export type SetupEvent =
  | { type: 'step-checked'; step: SetupStep; check: StepCheck }
  | { type: 'command-planned'; step: SetupStep; argv: Argv }
  | { type: 'command-started'; step: SetupStep; argv: Argv }
  | { type: 'command-ended'; step: SetupStep; argv: Argv; exitCode: number; stderr: string }
  | { type: 'step-ended'; step: SetupStep; outcome: StepOutcome; message: string };

export interface SetupResult {
  ok: boolean;
  steps: Array<{ id: string; outcome: StepOutcome; message: string }>;
}

export interface RunSetupOptions {
  dryRun: boolean;
  /** Receives progress. Must not throw. */
  emit: (event: SetupEvent) => void;
  /** Per applied command (bootstrap and pkg take minutes); default 60 min. */
  commandTimeoutMs?: number;
}

/** Runs `steps`; stops at the first required failure unless dry-running. */
export async function runSetup(
  steps: readonly SetupStep[],
  context: StepContext,
  options: RunSetupOptions,
): Promise<SetupResult> {
  const results: SetupResult['steps'] = [];
  for (const step of steps) {
    const { outcome, message } = await runStep(step, context, options);
    options.emit({ type: 'step-ended', step, outcome, message });
    results.push({ id: step.id, outcome, message });
    if (outcome === 'failed' && !options.dryRun) break;
  }
  return { ok: results.every((r) => r.outcome !== 'failed'), steps: results };
}

async function runStep(
  step: SetupStep,
  context: StepContext,
  options: RunSetupOptions,
): Promise<{ outcome: StepOutcome; message: string }> {
  const check = await step.check(context);
  options.emit({ type: 'step-checked', step, check });
  if (check.done) return { outcome: 'done', message: check.detail };
  if (check.plan.length === 0) {
    const message = `${check.detail}; ${check.hint ?? 'fix by hand'}`;
    return { outcome: check.severity === 'recommended' ? 'warned' : 'failed', message };
  }
  if (options.dryRun) {
    for (const command of check.plan) {
      options.emit({ type: 'command-planned', step, argv: command.argv });
    }
    return { outcome: 'planned', message: check.detail };
  }
  for (const command of check.plan) {
    options.emit({ type: 'command-started', step, argv: command.argv });
    const result = await context.runner.run(command.argv, {
      timeoutMs: options.commandTimeoutMs ?? 3_600_000,
    });
    const { exitCode, stderr } = result;
    options.emit({ type: 'command-ended', step, argv: command.argv, exitCode, stderr });
    if (exitCode !== 0 && !command.unreliableExit) {
      return { outcome: 'failed', message: `${command.argv.join(' ')} exited ${exitCode}` };
    }
  }
  // Re-check: some tools report success without doing the work.
  const after = await step.check(context);
  if (!after.done) return { outcome: 'failed', message: `still not done: ${after.detail}` };
  return { outcome: 'applied', message: after.detail };
}

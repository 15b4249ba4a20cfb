// The setup CLI's user-facing output: the only setup module allowed to write to the console.
import type { SetupEvent, SetupResult } from './run-setup.js';

/** Quotes an argv for display so it can be pasted into sh. */
export function formatArgv(argv: readonly string[]): string {
  return argv
    .map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`))
    .join(' ');
}

/** One line per event (lines are also the golden dry-run format). */
export function formatEvent(event: SetupEvent): string | null {
  switch (event.type) {
    case 'step-checked':
      return `# ${event.step.id}: ${event.step.title} (${event.check.done ? 'ok' : 'needed'})`;
    case 'command-planned':
      return formatArgv(event.argv);
    case 'command-started':
      return `$ ${formatArgv(event.argv)}`;
    case 'command-ended':
      return event.exitCode === 0 ? null : `  exit ${event.exitCode}: ${event.stderr.trim()}`;
    case 'step-ended':
      return event.outcome === 'done' || event.outcome === 'planned'
        ? null
        : `  ${event.outcome}: ${event.message}`;
  }
}

export function printEvent(event: SetupEvent): void {
  const line = formatEvent(event);
  if (line !== null) console.log(line);
}

export function printSummary(result: SetupResult, dryRun: boolean): void {
  const count = (outcome: string) => result.steps.filter((s) => s.outcome === outcome).length;
  const verb = dryRun ? 'would run' : 'applied';
  console.log(
    `setup ${result.ok ? 'ok' : 'FAILED'}: ${count('done')} already done, ` +
      `${count(dryRun ? 'planned' : 'applied')} ${verb}, ${count('warned')} warnings, ` +
      `${count('failed')} failed`,
  );
}

/** A block of text on stdout, as is (the verify-host report). */
export function printText(text: string): void {
  console.log(text);
}

/** Asked-for help on stdout (usage errors go to stderr with printError). */
export function printUsage(usage: string): void {
  console.log(usage);
}

export function printError(message: string): void {
  console.error(`clawdie setup: ${message}`);
}

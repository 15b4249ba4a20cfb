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

export function printUsage(): void {
  console.log(USAGE);
}

export function printError(message: string): void {
  console.error(`clawdie setup: ${message}`);
}

export const USAGE = `Usage: clawdie setup [--dry-run] [--os freebsd|linux] [options]
       clawdie setup --verify-host

Prepares this host for hostd: checks prerequisites, then on FreeBSD builds the Bastille browser
template and snapshots it; on Linux checks the sandbox tools and prepares the template profile.
Idempotent: steps whose check passes run nothing. --dry-run runs only read-only checks and prints
every command setup would run. On FreeBSD the names come from hostd's own settings, so run it with
hostd's environment: CLAWDIE_HOSTD_ZFS_TASKS_DATASET, CLAWDIE_HOSTD_JAILS_ROOT,
CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT (<pool>/bastille/jails/<name>/root@hostd-gNNNN: Bastille's pool
and template name), CLAWDIE_HOSTD_PF_ANCHOR and CLAWDIE_HOSTD_INTERFACE_GROUP.

Options:
  --dry-run               print the commands instead of running them
  --os freebsd|linux      target OS (default: this host's)
  --release R             FreeBSD release for Bastille (default 14.3-RELEASE)
  --interface IF          host interface for the template's VNET (default vtnet0)
  --template-ip IP        template address for bastille create -V (default SYNCDHCP)
  --generation gNNNN      template snapshot generation (default: CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT's)
  --jail-service DIR      built jail-service directory to install into the template
  --profile-dir DIR       Linux template profile directory
  --verify-host           acceptance check of this host, run as root with hostd stopped and
                          hostd's CLAWDIE_HOSTD_* settings: through hostd's driver, make one
                          clone, reach its jail-service, prove egress outside the allowlist is
                          refused, destroy it, prove nothing is left; print a report to paste
                          back (exit 0 only if every check passed)
  -h, --help              this text
`;

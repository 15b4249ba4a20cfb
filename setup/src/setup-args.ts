// Parses `clawdie setup`'s arguments strictly against setup-flags.ts and generates its usage.
import { parseArgs } from 'node:util';
import { type HostOs, SetupConfigError } from './config.js';
import { type SetupFlagSpec, type SetupFlags, setupFlags, verifyHostFlag } from './setup-flags.js';

export type SetupArgs =
  | { mode: 'help' }
  | { mode: 'verify-host' }
  | { mode: 'setup'; flags: SetupFlags };

const flagEntries = Object.entries(setupFlags) as [keyof SetupFlags, SetupFlagSpec][];

/** Throws SetupConfigError naming the argument (the CLI prints it with the usage, exit 2). */
export function parseSetupArgs(args: readonly string[]): SetupArgs {
  let parsed: ReturnType<typeof parseWithNode>;
  try {
    parsed = parseWithNode(args);
  } catch (error) {
    const message = (error as Error).message;
    const option = /'(--?[^'\s,]+)/.exec(message)?.[1];
    const unknown = (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION';
    throw new SetupConfigError(unknown && option ? `unknown option ${option}` : message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { mode: 'help' };
  if (positionals.length > 0 && positionals.join(' ') !== 'setup')
    throw new SetupConfigError(`unexpected arguments: ${positionals.join(' ')}`);
  const { help: _help, 'verify-host': verifyHost, ...flags } = values;
  if (verifyHost) {
    const others = Object.keys(flags).map((name) => `--${name}`);
    if (others.length > 0)
      throw new SetupConfigError(`--verify-host takes no other option (got ${others.join(' ')})`);
    return { mode: 'verify-host' };
  }
  return { mode: 'setup', flags };
}

function parseWithNode(args: readonly string[]) {
  const options = Object.fromEntries(
    flagEntries.map(([name, spec]) => [name, { type: spec.type }]),
  );
  return parseArgs({
    args: [...args],
    allowPositionals: true,
    strict: true,
    options: {
      ...options,
      'verify-host': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }) as { values: SetupFlags & { help?: boolean; 'verify-host'?: boolean }; positionals: string[] };
}

/** Refuses a flag that only the other OS's steps read (it would be ignored silently). */
export function checkFlagsForOs(flags: SetupFlags, os: HostOs): void {
  for (const [name, spec] of flagEntries) {
    if (flags[name] !== undefined && spec.os !== undefined && spec.os !== os)
      throw new SetupConfigError(
        `--${name} applies to ${spec.os} only (this run targets ${os}: --os or CLAWDIE_SETUP_OS)`,
      );
  }
}

/** `  --release R             FreeBSD release ... [freebsd]`, wrapped at 100 columns. */
function optionLines(name: string, spec: SetupFlagSpec): string[] {
  const head = `  --${name}${spec.value ? ` ${spec.value}` : ''}`.padEnd(25);
  const words = `${spec.description}${spec.os ? ` [${spec.os} only]` : ''}`.split(' ');
  const lines = [head];
  for (const word of words) {
    const last = lines.length - 1;
    const line = lines[last] ?? '';
    if (line.length + 1 + word.length > 100) lines.push(`${' '.repeat(25)} ${word}`);
    else lines[last] = `${line} ${word}`;
  }
  return lines;
}

const synopsisFlags = flagEntries
  .filter(([, spec]) => spec.os === undefined)
  .map(([name, spec]) => `[--${name}${spec.value ? ` ${spec.value}` : ''}]`);

export const USAGE = `Usage: clawdie setup ${synopsisFlags.join(' ')} [options]
       clawdie setup --verify-host

Prepares this host for hostd: checks prerequisites, then on FreeBSD builds the Bastille browser
template and snapshots it; on Linux checks the sandbox tools and prepares the template profile.
Idempotent: steps whose check passes run nothing. --dry-run runs only read-only checks and prints
every command setup would run. On FreeBSD the names come from hostd's own settings, so run it with
hostd's environment: CLAWDIE_HOSTD_ZFS_TASKS_DATASET, CLAWDIE_HOSTD_JAILS_ROOT,
CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT (<pool>/bastille/jails/<name>/root@hostd-gNNNN: Bastille's pool
and template name), CLAWDIE_HOSTD_PF_ANCHOR and CLAWDIE_HOSTD_INTERFACE_GROUP.

Options:
${[
  ...flagEntries.flatMap(([name, spec]) => optionLines(name, spec)),
  ...optionLines('verify-host', verifyHostFlag),
  `${'  -h, --help'.padEnd(25)} this text`,
].join('\n')}
`;

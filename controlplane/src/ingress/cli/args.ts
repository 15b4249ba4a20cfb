// The generic layer of the CLI: finds the declared command, parses its own flags strictly (a
// flag it does not declare is refused), checks them and its positionals, then calls its `parse`.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { AppError } from '../../errors.js';
import type { Command } from './command.js';
import type { CliCommand, FlagSpecs, FlagValues } from './command-spec.js';
import { adminCommands } from './commands/admin-commands.js';
import { backupCommands } from './commands/backup-commands.js';
import { hostCommands } from './commands/host-commands.js';
import { sessionCommands } from './commands/session-commands.js';
import { taskCommands } from './commands/task-commands.js';
import { UsageError } from './usage-error.js';
import { commandUsage, fullUsage, listUsage } from './usage-text.js';

/** Every command, in the order `clawdie help` lists them. */
export const commands: readonly CliCommand[] = [
  ...taskCommands,
  ...adminCommands,
  ...sessionCommands,
  ...hostCommands,
  ...backupCommands,
];

/** `clawdie help`. */
export const usage = fullUsage(commands);

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';

/** Parses CLI arguments; throws UsageError naming the bad argument, with the usage to show. */
export function parseCommand(argv: readonly string[]): Command {
  const [first] = argv;
  if (first === undefined || isHelp(first)) return { name: 'help', text: usage };
  if (first === 'help') return { name: 'help', text: helpFor(argv.slice(1)) };
  const found = lookup(argv);
  if ('command' in found) return parseFor(found.command, found.args);
  const text = listUsage(found.family);
  if (isHelp(found.sub)) return { name: 'help', text };
  const subs = found.family.map((command) => command.words[1]).join(', ');
  throw new UsageError(
    found.sub === undefined
      ? `missing subcommand (${subs})`
      : `unknown subcommand "${first} ${found.sub}"`,
    `clawdie ${first}`,
    text,
  );
}

/** The command named by argv's first words, or the family of a first word. */
function lookup(
  argv: readonly string[],
):
  | { command: CliCommand; args: readonly string[] }
  | { family: CliCommand[]; sub: string | undefined } {
  const [first, sub] = argv;
  const single = commands.find((command) => command.words.join(' ') === first);
  if (single) return { command: single, args: argv.slice(1) };
  const family = commands.filter(
    (command) => command.words.length > 1 && command.words[0] === first,
  );
  if (family.length === 0) throw new UsageError(`unknown command "${first}"`, 'clawdie', usage);
  const command = family.find((member) => member.words[1] === sub);
  return command ? { command, args: argv.slice(2) } : { family, sub };
}

/** `clawdie help [COMMAND]`. */
function helpFor(words: readonly string[]): string {
  if (words.length === 0) return usage;
  const found = lookup(words);
  if ('family' in found && found.sub === undefined) return listUsage(found.family);
  if ('command' in found && found.args.length === 0) return commandUsage(found.command);
  throw new UsageError(`no command "${words.join(' ')}"`, 'clawdie help', usage);
}

function parseFor(command: CliCommand, args: readonly string[]): Command {
  const fail = (message: string) =>
    new UsageError(message, `clawdie ${command.words.join(' ')}`, commandUsage(command));
  const options: ParseArgsConfig['options'] = { help: { type: 'boolean', short: 'h' } };
  for (const [name, spec] of Object.entries(command.flags)) {
    options[name] = {
      type: spec.type === 'boolean' ? 'boolean' : 'string',
      ...(spec.multiple ? { multiple: true } : {}),
    };
  }
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw fail(parseArgsMessage(error as Error & { code?: string }));
  }
  if (parsed.values.help) return { name: 'help', text: commandUsage(command) };
  try {
    const values = checkFlags(command.flags, parsed.values);
    checkPositionals(command, parsed.positionals);
    return command.parse(values, parsed.positionals);
  } catch (error) {
    if (error instanceof AppError && error.code === 'USAGE') throw fail(error.message);
    throw error;
  }
}

/** node:util's messages, shortened to name the option. */
function parseArgsMessage(error: Error & { code?: string }): string {
  const option = /'(-[^'\s,]+)/.exec(error.message)?.[1];
  if (!option) return error.message;
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${option}`;
  if (/does not take an argument/.test(error.message)) return `${option}: takes no value`;
  if (/ambiguous/.test(error.message))
    return `${option}: needs a value (one starting with - is written ${option}=VALUE)`;
  if (/argument missing/.test(error.message)) return `${option}: needs a value`;
  return error.message;
}

const usageError = (message: string) => new AppError('USAGE', message);

/** Required and non-empty values, positive integers, repeated flags as lists. */
function checkFlags(flags: FlagSpecs, raw: Record<string, unknown>): FlagValues<FlagSpecs> {
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(flags)) {
    const given = raw[name];
    if (spec.type === 'boolean') {
      values[name] = given === true;
      continue;
    }
    const list = (given === undefined ? [] : Array.isArray(given) ? given : [given]) as string[];
    if (list.includes('')) throw usageError(`--${name}: must not be empty`);
    if (spec.required && list.length === 0)
      throw usageError(`--${name}: ${spec.multiple ? 'at least one is required' : 'required'}`);
    const [value] = list;
    if (spec.multiple) values[name] = list;
    else if (spec.type === 'string' || value === undefined) values[name] = value ?? spec.default;
    else values[name] = positiveInteger(name, value);
  }
  return values as FlagValues<FlagSpecs>;
}

function positiveInteger(name: string, value: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 1)
    throw usageError(`--${name}: must be a positive integer`);
  return number;
}

function checkPositionals(command: CliCommand, given: readonly string[]): void {
  const declared = command.positionals;
  const rest = declared.at(-1)?.rest === true;
  if (rest ? given.length >= declared.length : given.length === declared.length) return;
  if (declared.length === 0) throw usageError(`unexpected argument "${given[0]}"`);
  const missing = declared[given.length];
  if (rest && missing) throw usageError(`${missing.name} is required`);
  const names = declared.map((arg) => arg.name).join(' ');
  throw usageError(
    declared.length === 1
      ? `exactly one ${names} is required (got ${given.length})`
      : `expects ${names} (got ${given.length} arguments)`,
  );
}

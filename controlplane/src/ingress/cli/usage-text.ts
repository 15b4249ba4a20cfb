// The CLI's usage, generated from the command declarations (nothing here names a flag).
import type { CliCommand, FlagSpec } from './command-spec.js';

const WIDTH = 100;

export const environmentNote = `environment: CLAWDIE_MODEL_URL, CLAWDIE_MODEL_NAME, CLAWDIE_MODEL_API_KEY, CLAWDIE_MODEL_VERSION,
CLAWDIE_JAIL_URL + CLAWDIE_JAIL_TOKEN, CLAWDIE_DATA_DIR, ... (see README)`;

const helpLine = 'clawdie help [COMMAND]';
const helpSummary = "this list, or one command's usage (also: clawdie COMMAND --help)";

/** `--ttl SECONDS`, `--json`. */
const flagWithValue = (name: string, spec: FlagSpec) =>
  spec.type === 'boolean'
    ? `--${name}`
    : `--${name} ${spec.value ?? (spec.type === 'integer' ? 'N' : 'VALUE')}`;

/** How a flag appears in a synopsis: `--tenant T`, `[--json]`, `--scope S [--scope S ...]`. */
function flagSynopsis(name: string, spec: FlagSpec): string {
  const one = flagWithValue(name, spec);
  if (spec.multiple) return spec.required ? `${one} [${one} ...]` : `[${one} ...]`;
  return spec.required ? one : `[${one}]`;
}

/** Words joined into lines of at most WIDTH columns; continuation lines start with `indent`. */
function wrap(parts: readonly string[], first: string, indent: string): string[] {
  const lines = [first];
  for (const part of parts) {
    const last = lines.length - 1;
    const line = lines[last] ?? '';
    if (line.trim() !== '' && line.length + 1 + part.length > WIDTH) lines.push(indent + part);
    else lines[last] = line.trim() === '' ? line + part : `${line} ${part}`;
  }
  return lines;
}

/** `clawdie token create --tenant T --scope S [--scope S ...] [--ttl SECONDS] [--subject NAME]`. */
export function synopsis(command: CliCommand, indent = '  '): string[] {
  const parts = [
    ...command.positionals.map((arg) => (arg.rest ? `${arg.name}...` : arg.name)),
    ...Object.entries(command.flags).map(([name, spec]) => flagSynopsis(name, spec)),
  ];
  return wrap(parts, `${indent}clawdie ${command.words.join(' ')}`, `${indent}      `);
}

/** One command in a list: its synopsis, then its summary indented under it. */
const listEntry = (lines: string[], summary: string): string[] => [...lines, `      ${summary}`];

/** Several commands' synopses and summaries (a family: `clawdie session --help`). */
export function listUsage(commands: readonly CliCommand[]): string {
  const lines = commands.flatMap((command) => listEntry(synopsis(command), command.summary));
  return `usage:\n${lines.join('\n')}`;
}

/** `clawdie help`: every command, then the environment. */
export function fullUsage(commands: readonly CliCommand[]): string {
  const help = listEntry([`  ${helpLine}`], helpSummary);
  return `${listUsage(commands)}\n${help.join('\n')}\n\n${environmentNote}`;
}

/** `clawdie <command> --help`: the synopsis, the summary, each option with its description. */
export function commandUsage(command: CliCommand): string {
  const options = Object.entries(command.flags).map(([name, spec]) => {
    const notes = [
      spec.default !== undefined ? `default ${spec.default}` : '',
      spec.required ? 'required' : '',
      spec.multiple ? 'repeatable' : '',
    ].filter(Boolean);
    const suffix = notes.length > 0 ? ` (${notes.join(', ')})` : '';
    return `  ${flagWithValue(name, spec).padEnd(20)} ${spec.description}${suffix}`;
  });
  options.push(`  ${'-h, --help'.padEnd(20)} this text`);
  const details = command.details?.length ? `\n\n${command.details.join('\n')}` : '';
  return `usage:\n${synopsis(command).join('\n')}\n\n${command.summary}\n\noptions:\n${options.join('\n')}${details}`;
}

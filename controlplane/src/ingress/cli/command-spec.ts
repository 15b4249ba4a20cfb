import type { Command } from './command.js';

/** One flag of one command: what node:util parseArgs needs, plus what its usage says. */
export interface FlagSpec {
  /** `integer`: a positive integer, checked (and defaulted) before the command's `parse`. */
  readonly type: 'string' | 'boolean' | 'integer';
  /** May be repeated (strings only); `parse` gets every value, `[]` when none. */
  readonly multiple?: boolean;
  /** Refused when absent (a repeated flag: at least once). */
  readonly required?: boolean;
  /** An integer flag's value when absent. */
  readonly default?: number;
  /** The value's name in the usage, as in `--ttl SECONDS`. */
  readonly value?: string;
  readonly description: string;
}

export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

export interface PositionalSpec {
  /** As the usage shows it: `DEST`. */
  readonly name: string;
  /** Takes every remaining argument, at least one (only the last positional). */
  readonly rest?: boolean;
}

type FlagValue<F extends FlagSpec> = F['type'] extends 'boolean'
  ? boolean
  : F['type'] extends 'integer'
    ? F extends { default: number } | { required: true }
      ? number
      : number | undefined
    : F extends { multiple: true }
      ? string[]
      : F extends { required: true }
        ? string
        : string | undefined;

/** The checked values `parse` receives: never an empty string, required ones present. */
export type FlagValues<Flags extends FlagSpecs> = { [K in keyof Flags]: FlagValue<Flags[K]> };

/** One CLI command, declared once: its words, arguments, flags, usage and parser. */
export interface CommandSpec<Flags extends FlagSpecs> {
  /** The words that name it: `['session', 'save']`. */
  readonly words: readonly string[];
  readonly positionals: readonly PositionalSpec[];
  readonly flags: Flags;
  /** One line for `clawdie help`. */
  readonly summary: string;
  /** More lines for `clawdie <command> --help`. */
  readonly details?: readonly string[];
  /**
   * Builds the command from the checked flags and the positionals (their count already checked).
   * Throws AppError `USAGE` for a bad value; the CLI prints it with this command's usage.
   */
  parse(values: FlagValues<Flags>, positionals: readonly string[]): Command;
}

/** A declared command with its flag types erased, as the generic layer holds it. */
export type CliCommand = CommandSpec<FlagSpecs>;

/** Declares a command; `parse` sees its flag values typed from the declaration. */
export function defineCommand<const Flags extends FlagSpecs>(spec: CommandSpec<Flags>): CliCommand {
  return spec as unknown as CliCommand;
}

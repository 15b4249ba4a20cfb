// BSD getopt(3) as FreeBSD's libc implements it (freebsd/freebsd-src lib/libc/stdlib/getopt.c, the
// loop read in SOURCES.getopt): option clustering (`-rf`), an option argument either glued (`-d1`)
// or the next word, `--` ends the options, a lone `-` is an operand, and scanning STOPS at the first
// operand — options after an operand are operands (no GNU permutation).

export interface ParsedOption {
  letter: string;
  value?: string;
}

export interface GetoptResult {
  options: ParsedOption[];
  operands: string[];
  problems: string[];
}

/** Parses `args` (the words after the program, or after its subcommand) against `optstring`. */
export function bsdGetopt(args: readonly string[], optstring: string): GetoptResult {
  const options: ParsedOption[] = [];
  const problems: string[] = [];
  let index = 0;
  while (index < args.length) {
    const word = args[index] ?? '';
    if (!word.startsWith('-') || word === '-') break;
    if (word === '--') {
      index += 1;
      break;
    }
    let position = 1;
    index += 1;
    while (position < word.length) {
      const letter = word[position] ?? '';
      position += 1;
      const at = letter === ':' ? -1 : optstring.indexOf(letter);
      if (at < 0) {
        problems.push(`illegal option -- ${letter}`);
        continue;
      }
      if (optstring[at + 1] !== ':') {
        options.push({ letter });
        continue;
      }
      if (position < word.length) {
        options.push({ letter, value: word.slice(position) });
      } else if (optstring[at + 2] === ':') {
        options.push({ letter });
      } else if (index < args.length) {
        options.push({ letter, value: args[index] ?? '' });
        index += 1;
      } else {
        problems.push(`option requires an argument -- ${letter}`);
      }
      break;
    }
  }
  return { options, operands: args.slice(index), problems };
}

/** The values given for one option letter, in order. */
export function values(result: GetoptResult, letter: string): string[] {
  return result.options.filter((o) => o.letter === letter).map((o) => o.value ?? '');
}

export function has(result: GetoptResult, letter: string): boolean {
  return result.options.some((o) => o.letter === letter);
}

/** A problem unless `count` lies within [min, max]. */
export function operandCount(
  result: GetoptResult,
  min: number,
  max: number,
  what: string,
): string[] {
  const count = result.operands.length;
  if (count < min) return [`${what}: missing operand (${count} < ${min})`];
  if (count > max)
    return [`${what}: too many operands (${count} > ${max}): ${result.operands.join(' ')}`];
  return [];
}

// bastille(8) 1.4.4 argument grammar as its shell scripts parse it (SOURCES.bastille): the global
// options of usr/local/bin/bastille, then per command the options of its "# Handle options" loop
// (single letters may be clustered, `-x` for an unknown letter is "Unknown Option") and the operand
// count it checks before doing anything. The scripts themselves are run in bastille-scripts.test.ts.

interface Command {
  letters: string;
  /** Letters taking a value (`-d 5`). */
  valued?: string;
  operands: [number, number];
}

const COMMANDS: Record<string, Command> = {
  bootstrap: { letters: 'pu', operands: [1, 2] },
  create: { letters: 'BCDELMOPTV', valued: 'eginpvZ', operands: [3, 4] },
  start: { letters: 'bv', valued: 'd', operands: [1, 1] },
  stop: { letters: 'fv', operands: [1, 1] },
  pkg: { letters: 'aHy', operands: [2, Number.POSITIVE_INFINITY] },
  cmd: { letters: 'a', operands: [1, Number.POSITIVE_INFINITY] },
};

export function validateBastille(args: readonly string[]): string[] {
  const rest = [...args];
  while (rest[0] === '-q' || rest[0] === '-x') rest.shift();
  if (rest[0] === '-v' || rest[0] === '--version')
    return rest.length === 1 ? [] : ['bastille -v: extra words'];
  const [name = '', ...words] = rest;
  const command = COMMANDS[name];
  if (!command) return [`bastille: unknown or unmodelled command "${name}"`];
  const problems: string[] = [];
  let index = 0;
  while (index < words.length && (words[index] ?? '').startsWith('-')) {
    const word = words[index] ?? '';
    index += 1;
    if (word.length === 2 && command.valued?.includes(word[1] ?? '')) {
      index += 1;
      continue;
    }
    for (const letter of word.slice(1)) {
      if (!command.letters.includes(letter)) problems.push(`Unknown Option: "${word}"`);
    }
  }
  const count = words.length - index;
  const [min, max] = command.operands;
  if (count < min || count > max) problems.push(`usage: ${count} operands (want ${min}..${max})`);
  return problems.map((p) => `bastille ${name}: ${p}`);
}

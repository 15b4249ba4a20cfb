// jail(8) and jls(8): jail.c's getopt string "cde:f:hiJ:lmn:p:qrRs:u:U:v" and its four command-line
// styles (old 4-operand form; -r/-R removal; name=value parameters; from the config file), jls.c's
// "adj:hNnqsv" after libxo's xo_parse_args() has removed `--libxo X` / `--libxo=X` / `--libxo:X`.
import { bsdGetopt, has } from './getopt.js';
import { jailParameterProblems } from './jail-params.js';

const JAIL_OPTSTRING = 'cde:f:hiJ:lmn:p:qrRs:u:U:v';

export function validateJail(args: readonly string[]): string[] {
  const parsed = bsdGetopt(args, JAIL_OPTSTRING);
  const problems = [...parsed.problems];
  const { operands } = parsed;
  const remove = has(parsed, 'r') || has(parsed, 'R');
  const op = has(parsed, 'c') || has(parsed, 'm') || remove || has(parsed, 'e');
  // -h -l -n -s -u -U add parameters and switch the config file off (docf = 0).
  const usesConfig = !['h', 'l', 'n', 's', 'u', 'U'].some((letter) => has(parsed, letter));
  if (!op) {
    if (operands.length < 4 || !operands[0]?.startsWith('/'))
      problems.push('jail: usage (no -c/-m/-r)');
    return problems;
  }
  if (remove && !has(parsed, 'c') && !has(parsed, 'm')) {
    if (!usesConfig || operands.length === 0)
      problems.push('jail -r: usage (needs a jail, no -hlnsuU)');
    if (!has(parsed, 'R') && operands.some((o) => o.includes('='))) {
      problems.push('jail -r: parameters not allowed');
    }
    return problems;
  }
  if (operands.length > 1 || operands[0]?.includes('=')) {
    if (has(parsed, 'R')) problems.push('jail: -R with parameters');
    for (const operand of operands) {
      if (operand === 'command' || operand.startsWith('command=')) break;
      const at = operand.indexOf('=');
      problems.push(
        ...(at < 0
          ? jailParameterProblems(operand)
          : jailParameterProblems(operand.slice(0, at), operand.slice(at + 1))),
      );
    }
  } else if (has(parsed, 'R') || !usesConfig) {
    problems.push('jail: config-file form with -R or -hlnsuU');
  }
  return problems.map((p) => (p.startsWith('jail') ? p : `jail: ${p}`));
}

/** Removes libxo's own arguments the way xo_parse_args() does. */
export function withoutLibxo(args: readonly string[]): { rest: string[]; problems: string[] } {
  const rest: string[] = [];
  const problems: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index] ?? '';
    if (!word.startsWith('--libxo')) {
      rest.push(word);
      continue;
    }
    const tail = word.slice('--libxo'.length);
    if (tail === '') {
      index += 1;
      if (index >= args.length) problems.push('missing libxo option');
    } else if (tail[0] !== ':' && tail[0] !== '=' && tail !== '-check') {
      problems.push(`unknown libxo option: '${word}'`);
    }
  }
  return { rest, problems };
}

export function validateJls(args: readonly string[]): string[] {
  const libxo = withoutLibxo(args);
  const parsed = bsdGetopt(libxo.rest, 'adj:hNnqsv');
  const parameters = parsed.operands.flatMap((name) =>
    name === 'all' ? [] : jailParameterProblems(name),
  );
  return [...libxo.problems, ...parsed.problems, ...parameters].map((p) => `jls: ${p}`);
}

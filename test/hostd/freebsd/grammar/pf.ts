// pfctl(8) from sbin/pfctl/pfctl.c (SOURCES.pfctl): the getopt string of main(), the modifier words
// of -s / -F / -T / -x / -o (matched like pfctl_lookup_option(): the first list entry the word is a
// prefix of), -k at most twice, -t with -T only, no operands except table addresses, and the -a
// anchor rules (non-empty; only with -f/-F/-s/-T; no '_'-prefixed component when modifying).
import { bsdGetopt, has, values } from './getopt.js';

const OPTSTRING = 'a:AdD:eqf:F:ghi:k:K:mMnNOo:Pp:rRs:St:T:vx:z';
const CLEAR = [
  'nat',
  'queue',
  'rules',
  'Sources',
  'states',
  'info',
  'Tables',
  'osfp',
  'all',
  'ethernet',
  'Reset',
];
const SHOW = [
  'ether',
  'nat',
  'queue',
  'rules',
  'Anchors',
  'Sources',
  'states',
  'info',
  'Interfaces',
  'labels',
  'timeouts',
  'memory',
  'Tables',
  'osfp',
  'Running',
  'all',
  'creatorids',
];
const TABLE = [
  'kill',
  'flush',
  'add',
  'delete',
  'load',
  'replace',
  'show',
  'test',
  'zero',
  'expire',
  'reset',
];
const DEBUG = ['none', 'urgent', 'misc', 'loud'];
const OPTIMIZE = ['none', 'basic', 'profile'];

/** pfctl_lookup_option(): the first entry `word` is a non-empty prefix of. */
export function lookupModifier(word: string, list: readonly string[]): string | null {
  return word === '' ? null : (list.find((entry) => entry.startsWith(word)) ?? null);
}

export function anchorProblems(anchor: string, modifying: boolean): string[] {
  if (anchor === '') return ['anchor name must not be empty'];
  if (anchor.length >= 1024) return [`anchor name '${anchor}' too long`];
  if (modifying && (anchor.startsWith('_') || anchor.includes('/_'))) {
    return ["anchor names beginning with '_' cannot be modified from the command line"];
  }
  return [];
}

export function validatePfctl(args: readonly string[]): string[] {
  const parsed = bsdGetopt(args, OPTSTRING);
  const problems = [...parsed.problems];
  const modifier = (letter: string, list: readonly string[], what: string) => {
    for (const word of values(parsed, letter)) {
      if (!lookupModifier(word, list)) problems.push(`Unknown ${what} '${word}'`);
    }
  };
  modifier('s', SHOW, 'show modifier');
  modifier('F', CLEAR, 'flush modifier');
  modifier('T', TABLE, 'table command');
  modifier('x', DEBUG, 'debug level');
  modifier('o', OPTIMIZE, 'optimization');
  if (values(parsed, 'k').length > 2) problems.push('can only specify -k twice');
  if (values(parsed, 'K').length > 2) problems.push('can only specify -K twice');
  const table = has(parsed, 'T');
  if (table !== has(parsed, 't')) problems.push('usage: -t and -T go together');
  if (!table && parsed.operands.length > 0) {
    problems.push(`unknown command line argument: ${parsed.operands[0]} ...`);
  }
  const tableWrites = values(parsed, 'T').some((w) => !['s', 't'].includes(w[0] ?? ''));
  const modifying =
    ['d', 'e', 'F', 'k', 'K', 'f', 'x', 'z'].some((letter) => has(parsed, letter)) || tableWrites;
  for (const anchor of values(parsed, 'a')) {
    if (!modifying && !has(parsed, 's') && !table) {
      problems.push('anchors apply to -f, -F, -s, and -T only');
    }
    problems.push(...anchorProblems(anchor, modifying && !table));
  }
  if (parsed.options.length === 0 && parsed.operands.length === 0)
    problems.push('usage: no options');
  return problems.map((p) => `pfctl: ${p}`);
}

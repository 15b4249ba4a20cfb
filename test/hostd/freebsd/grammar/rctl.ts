// rctl(8): usr.bin/rctl/rctl.c (getopt "ahlnru", at most one of -a -l -r -u, a rule or filter per
// operand, subject aliases u/g/p/l/c/class/j) and the kernel's rule parser and rctl_rule_add()
// checks in sys/kern/kern_rctl.c + kern_racct.c (SOURCES.rctl, SOURCES.rctlKernel).
import { bsdGetopt, has } from './getopt.js';

const SUBJECTS = new Set(['process', 'user', 'loginclass', 'jail']);
const ALIASES: Record<string, string> = {
  u: 'user',
  g: 'group',
  p: 'process',
  l: 'loginclass',
  c: 'loginclass',
  class: 'loginclass',
  j: 'jail',
};
export const RCTL_RESOURCES: ReadonlySet<string> = new Set([
  'cputime',
  'datasize',
  'stacksize',
  'coredumpsize',
  'memoryuse',
  'memorylocked',
  'maxproc',
  'openfiles',
  'vmemoryuse',
  'pseudoterminals',
  'swapuse',
  'nthr',
  'msgqqueued',
  'msgqsize',
  'nmsgq',
  'nsem',
  'nsemop',
  'nshm',
  'shmsize',
  'wallclock',
  'pcpu',
  'readbps',
  'writebps',
  'readiops',
  'writeiops',
]);
const SIGNALS =
  'hup int quit ill trap abrt emt fpe kill bus segv sys pipe alrm term urg stop tstp chld ttin ' +
  'ttou io xcpu xfsz vtalrm prof winch info usr1 usr2 thr';
export const RCTL_ACTIONS: ReadonlySet<string> = new Set([
  ...SIGNALS.split(' ').map((s) => `sig${s}`),
  'deny',
  'log',
  'devctl',
  'throttle',
]);
/** racct_types[]: RACCT_DENIABLE (plus memoryuse and pcpu, enforced differently). */
const DENIABLE = new Set([
  'datasize',
  'stacksize',
  'coredumpsize',
  'memoryuse',
  'memorylocked',
  'maxproc',
  'openfiles',
  'vmemoryuse',
  'pseudoterminals',
  'swapuse',
  'nthr',
  'msgqqueued',
  'msgqsize',
  'nmsgq',
  'nsem',
  'nsemop',
  'nshm',
  'shmsize',
  'pcpu',
]);
const DECAYING = new Set(['pcpu', 'readbps', 'writebps', 'readiops', 'writeiops']);
const SLOPPY = new Set([
  'pseudoterminals',
  'swapuse',
  'msgqqueued',
  'msgqsize',
  'nmsgq',
  'nsem',
  'nshm',
  'shmsize',
]);

/** Problems with one rule (`full`: as -a needs it) or filter (any prefix of the fields). */
export function rctlRuleProblems(text: string, full: boolean): string[] {
  const [subjectWord, id, resource, rest] = splitRule(text);
  const subject = ALIASES[subjectWord.toLowerCase()] ?? subjectWord.toLowerCase();
  if (id === undefined) return [`malformed rule '${text}': missing subject`];
  const problems: string[] = [];
  if (subject !== '' && !SUBJECTS.has(subject)) problems.push(`unknown subject "${subjectWord}"`);
  if (resource && !RCTL_RESOURCES.has(resource)) problems.push(`unknown resource "${resource}"`);
  const match = /^([a-z0-9]*)(?:=([^/]*))?(?:\/(.*))?$/.exec(rest ?? '');
  const [, action = '', amount, per] = match ?? [];
  if (!match) problems.push(`malformed action "${rest}"`);
  if (action && !RCTL_ACTIONS.has(action)) problems.push(`unknown action "${action}"`);
  if (amount !== undefined && amount !== '' && !/^\d+[kmgtpe]?$/i.test(amount)) {
    problems.push(`invalid numeric value '${amount}'`);
  }
  if (per !== undefined && !SUBJECTS.has(per)) problems.push(`unknown per "${per}"`);
  if (full) {
    if (!subject || !id || !resource || !action || !amount) {
      problems.push('rule not fully specified (subject:id:resource:action=amount)');
    }
    if (action === 'deny' && resource && !DENIABLE.has(resource))
      problems.push(`${resource} cannot be denied`);
    if (action === 'throttle' && (!DECAYING.has(resource ?? '') || resource === 'pcpu')) {
      problems.push(`${resource} cannot be throttled`);
    }
    if ((per ?? subject) === 'process' && SLOPPY.has(resource ?? '')) {
      problems.push(`${resource} cannot be limited per process`);
    }
  }
  return problems.map((p) => `rule '${text}': ${p}`);
}

function splitRule(
  text: string,
): [string, string | undefined, string | undefined, string | undefined] {
  const parts = text.split(':');
  return [
    parts[0] ?? '',
    parts[1],
    parts[2],
    parts.length > 3 ? parts.slice(3).join(':') : undefined,
  ];
}

export function validateRctl(args: readonly string[]): string[] {
  const parsed = bsdGetopt(args, 'ahlnru');
  const problems = [...parsed.problems];
  const modes = ['a', 'l', 'r', 'u'].filter((letter) => has(parsed, letter));
  if (modes.length > 1) problems.push('at most one of -a, -l, -r, or -u may be specified');
  if (parsed.operands.length === 0 && modes.length > 0)
    problems.push('usage: missing rule or filter');
  for (const operand of parsed.operands)
    problems.push(...rctlRuleProblems(operand, has(parsed, 'a')));
  return problems.map((p) => `rctl: ${p}`);
}

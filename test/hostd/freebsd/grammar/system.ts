// Base-system helpers the driver and setup run: mount/umount (SOURCES.mount), sysctl (SOURCES.sysctl),
// daemon (SOURCES.daemon, used inside exec.start), pw (SOURCES.pw: `-R dir` / `-V dir` before the
// keywords, then `useradd`/`usershow` NAME and that command's getopt string) and pkg (SOURCES.pkg:
// global getopt_long "+dj:c:C:R:r:lNvo:46", then the command's own string).
import { bsdGetopt, type GetoptResult, has, operandCount } from './getopt.js';

const prefixed = (tool: string, problems: string[]) => problems.map((p) => `${tool}: ${p}`);

export function validateMount(args: readonly string[]): string[] {
  const parsed = bsdGetopt(args, 'adF:fLlno:prt:uvw');
  return prefixed('mount', [...parsed.problems, ...operandCount(parsed, 0, 2, 'mount')]);
}

export function validateUmount(args: readonly string[]): string[] {
  const parsed = bsdGetopt(args, 'AaF:fh:Nnt:v');
  const letters = new Set(parsed.options.map((o) => o.letter));
  const all = letters.has('a') || letters.has('A') || letters.has('h');
  const problems = [...parsed.problems];
  if (letters.has('f') && letters.has('n')) problems.push('-f and -n are mutually exclusive');
  if (all === parsed.operands.length > 0) problems.push('usage: a mount point xor -a/-A/-h');
  return prefixed('umount', problems);
}

export function validateSysctl(args: readonly string[]): string[] {
  const parsed = bsdGetopt(args, 'AabB:def:hiNnoqtTwWxX');
  const names = parsed.operands.flatMap((name) =>
    /^[a-z0-9_.%-]+(=.*)?$/i.test(name) ? [] : [`bad oid "${name}"`],
  );
  return prefixed('sysctl', [...parsed.problems, ...names]);
}

/** kldstat(8) (SOURCES.kld): getopt "dhi:m:n:qv", no operands. */
export function validateKldstat(args: readonly string[]): string[] {
  const parsed = bsdGetopt(args, 'dhi:m:n:qv');
  return prefixed('kldstat', [...parsed.problems, ...operandCount(parsed, 0, 0, 'kldstat')]);
}

/** kldload(8) (SOURCES.kld): getopt "nqv", then one or more files or module names. */
export function validateKldload(args: readonly string[]): string[] {
  const parsed = bsdGetopt(args, 'nqv');
  return prefixed('kldload', [...parsed.problems, ...operandCount(parsed, 1, 1e9, 'kldload')]);
}

/** daemon(8)'s options; the first operand starts the command it runs. */
export const DAEMON_OPTIONS = 'cfHSp:P:ru:o:s:l:t:m:R:T:h';

export function validateDaemon(args: readonly string[]): string[] {
  const parsed = bsdGetopt(args, DAEMON_OPTIONS);
  return prefixed('daemon', [...parsed.problems, ...operandCount(parsed, 1, 1e9, 'daemon')]);
}

/** jexec(8) (SOURCES.jexec: getopt "nu:U:"): a jail, then the command it runs in it. */
export const JEXEC_OPTIONS = 'nu:U:';

export function validateJexec(args: readonly string[]): string[] {
  const parsed = bsdGetopt(args, JEXEC_OPTIONS);
  const both = has(parsed, 'u') && has(parsed, 'U') ? ['-u and -U together (usage)'] : [];
  return prefixed('jexec', [...parsed.problems, ...both, ...operandCount(parsed, 2, 1e9, 'jexec')]);
}

/** sysrc(8) (SOURCES.sysrc): `getopts aAcdDef:Fhij:nNqR:vxX`, then NAME, NAME=value, NAME+=… */
export function validateSysrc(args: readonly string[]): string[] {
  const parsed = bsdGetopt(args, 'aAcdDef:Fhij:nNqR:vxX');
  const all = parsed.options.some((o) => o.letter === 'a' || o.letter === 'A');
  const names = parsed.operands.flatMap((word) =>
    /^[A-Za-z_][A-Za-z0-9_]*[+-]?(=.*)?$/s.test(word) ? [] : [`bad variable "${word}"`],
  );
  return prefixed('sysrc', [
    ...parsed.problems,
    ...(all ? [] : operandCount(parsed, 1, 1e9, 'sysrc')),
    ...names,
  ]);
}

/** mkdir(1) "m:pv" and uname(1) "abiKmnoprsUv" (SOURCES.coreutils). */
export function validateMkdir(args: readonly string[]): string[] {
  const parsed = bsdGetopt(args, 'm:pv');
  return prefixed('mkdir', [...parsed.problems, ...operandCount(parsed, 1, 1e9, 'mkdir')]);
}

export function validateUname(args: readonly string[]): string[] {
  const parsed = bsdGetopt(args, 'abiKmnoprsUv');
  return prefixed('uname', [...parsed.problems, ...operandCount(parsed, 0, 0, 'uname')]);
}

const PW_COMMANDS: Record<string, string> = {
  useradd: 'C:qn:u:c:d:e:p:g:G:mM:k:s:oL:i:w:h:H:Db:NPy:Y',
  usershow: 'C:qn:u:FPa7',
};

export function validatePw(args: readonly string[]): string[] {
  const rest = [...args];
  const problems: string[] = [];
  let relocated = false;
  while (rest[0] === '-R' || rest[0] === '-V') {
    if (relocated) problems.push("Both '-R' and '-V' specified, only one accepted");
    relocated = true;
    if (rest.length < 2) problems.push('-R needs a directory');
    rest.splice(0, 2);
  }
  const [command = '', name, ...options] = rest;
  const optstring = PW_COMMANDS[command];
  if (!optstring)
    return prefixed('pw', [...problems, `unknown or unmodelled keyword "${command}"`]);
  if (!name || name.startsWith('-')) problems.push(`${command}: missing user name`);
  const parsed: GetoptResult = bsdGetopt(options, optstring);
  if (parsed.operands.length > 0) problems.push(`unexpected operands ${parsed.operands.join(' ')}`);
  return prefixed('pw', [...problems, ...parsed.problems]);
}

const PKG_COMMANDS: Record<string, string> = {
  install: 'ACfFgiIlMnqr:RUXxy',
  info: 'aAbBCdDeEfF:giIkloOpqrRsx',
};

/**
 * /usr/sbin/pkg is first the base system's bootstrapper (SOURCES.pkgBootstrap): on a host without
 * pkg it reads `-y` only among the leading options of the subcommand, and with stdin not a tty
 * (hostd and setup never have one) it refuses to bootstrap without it. pkg install prompts the same
 * way. So a non-interactive `pkg install` must carry -y before its first package name.
 */
export function validatePkg(args: readonly string[]): string[] {
  const global = bsdGetopt(args, 'dj:c:C:R:r:lNvo:46');
  const [command = '', ...rest] = global.operands;
  const optstring = PKG_COMMANDS[command];
  if (!optstring) {
    return prefixed('pkg', [...global.problems, `unknown or unmodelled command "${command}"`]);
  }
  const parsed = bsdGetopt(rest, optstring);
  const yes = parsed.options.some((o) => o.letter === 'y');
  return prefixed('pkg', [
    ...global.problems,
    ...parsed.problems,
    ...operandCount(parsed, 1, 1e9, `pkg ${command}`),
    ...(command === 'install' && !yes ? ['install without a leading -y prompts (no tty)'] : []),
  ]);
}

/**
 * route(8) (SOURCES.route): getopt "46nqdtv", then a keyword; `get` takes one destination
 * (route.c newroute(): `default` or an address).
 */
export function validateRoute(args: readonly string[]): string[] {
  const parsed = bsdGetopt(args, '46nqdtv');
  const [keyword = '', ...rest] = parsed.operands;
  const problems = [...parsed.problems];
  if (!['add', 'flush', 'delete', 'del', 'change', 'get', 'monitor', 'show'].includes(keyword)) {
    problems.push(`${keyword}: unknown keyword`);
  } else if ((keyword === 'get' || keyword === 'show') && rest.length !== 1) {
    problems.push(`${keyword} needs one destination`);
  }
  return prefixed('route', problems);
}

/**
 * devfs(8) (SOURCES.devfs): devfs.c main() getopt "m:", then `rule`/`ruleset`; rule.c rule_main()
 * getopt "s:", then a rule command (`show` takes an optional rule number).
 */
export function validateDevfs(args: readonly string[]): string[] {
  const global = bsdGetopt(args, 'm:');
  const [command = '', ...rest] = global.operands;
  if (command !== 'rule')
    return prefixed('devfs', [...global.problems, `unmodelled command "${command}"`]);
  const parsed = bsdGetopt(rest, 's:');
  const [sub = '', ...more] = parsed.operands;
  const problems = [...global.problems, ...parsed.problems];
  if (!['add', 'apply', 'applyset', 'del', 'delset', 'show', 'showsets'].includes(sub)) {
    problems.push(`rule ${sub}: unknown command`);
  } else if (sub === 'show' && more.length > 1) problems.push('rule show: at most one rule number');
  const set = parsed.options.find((o) => o.letter === 's')?.value;
  if (set !== undefined && !/^\d+$/.test(set)) problems.push(`invalid ruleset "${set}"`);
  return prefixed('devfs', problems);
}

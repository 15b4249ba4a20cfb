// validateArgv(argv) → problems: checks one argv the FreeBSD driver or setup runs against the real
// tool's grammar (this folder; SOURCES names where each part was read). An empty list means the
// tool would accept the words; a program outside the table is itself a problem unless it is listed
// in UNCHECKED with the reason it has no grammar here yet. A command that runs another command
// (daemon(8), env(1)) has that command checked too.

import { validateBastille } from './bastille.js';
import { bsdGetopt } from './getopt.js';
import { validateIfconfig } from './ifconfig.js';
import { validateJail, validateJls } from './jail.js';
import { validatePfctl } from './pf.js';
import { validateRctl } from './rctl.js';
import {
  DAEMON_OPTIONS,
  JEXEC_OPTIONS,
  validateDaemon,
  validateDevfs,
  validateJexec,
  validateKldload,
  validateKldstat,
  validateMkdir,
  validateMount,
  validatePkg,
  validatePw,
  validateRoute,
  validateSysctl,
  validateSysrc,
  validateUmount,
  validateUname,
} from './system.js';
import { validateXvfb } from './xvfb.js';
import { validateZfs } from './zfs.js';

type Validator = (args: readonly string[]) => string[];

export const VALIDATORS: Readonly<Record<string, Validator>> = {
  '/sbin/zfs': validateZfs,
  '/usr/sbin/jail': validateJail,
  '/usr/sbin/jls': validateJls,
  '/sbin/pfctl': validatePfctl,
  '/usr/bin/rctl': validateRctl,
  '/sbin/ifconfig': validateIfconfig,
  '/sbin/mount': validateMount,
  '/sbin/umount': validateUmount,
  '/sbin/sysctl': validateSysctl,
  '/sbin/kldstat': validateKldstat,
  '/sbin/kldload': validateKldload,
  '/usr/sbin/daemon': validateDaemon,
  '/usr/sbin/jexec': validateJexec,
  '/usr/sbin/pw': validatePw,
  '/usr/sbin/pkg': validatePkg,
  '/usr/local/bin/bastille': validateBastille,
  '/usr/sbin/sysrc': validateSysrc,
  '/bin/mkdir': validateMkdir,
  '/usr/bin/uname': validateUname,
  '/usr/local/bin/Xvfb': validateXvfb,
  '/sbin/route': validateRoute,
  '/sbin/devfs': validateDevfs,
};

/** Programs run by setup whose grammar was not read; their argv is accepted unchecked. */
export const UNCHECKED: Readonly<Record<string, string>> = {
  '/usr/bin/id': 'id -u only; source not read',
  '/bin/test': 'test -f/-d only; source not read',
  '/bin/cp': 'cp -R only; source not read',
  '/usr/bin/install': 'install -d -m [-o], install -m <file> <file> only; source not read',
  '/usr/bin/cmp': 'cmp -s <file> <file> only; source not read',
  '/usr/bin/env': 'env NAME=value… program (inside exec.start); the program is checked',
  '/usr/local/bin/node': 'node (inside exec.start, or the connection probe under jexec)',
};

export function validateArgv(argv: readonly string[]): string[] {
  const [program = '', ...args] = argv;
  const validator = VALIDATORS[program];
  const problems = validator ? validator(args) : [];
  if (!validator && !(program in UNCHECKED)) return [`${program}: not in the grammar table`];
  const nested = nestedCommand(program, args);
  return nested.length > 0 ? [...problems, ...validateArgv(nested)] : problems;
}

/** The command daemon(8) or env(1) runs, or [] when it runs none. */
function nestedCommand(program: string, args: readonly string[]): readonly string[] {
  if (program === '/usr/sbin/daemon') return bsdGetopt(args, DAEMON_OPTIONS).operands;
  if (program === '/usr/sbin/jexec') return bsdGetopt(args, JEXEC_OPTIONS).operands.slice(1);
  if (program !== '/usr/bin/env') return [];
  const utility = args.findIndex((word) => !word.includes('='));
  return utility < 0 ? [] : args.slice(utility);
}

// jail(8) parameter names. Internal parameters: the intparams[] table of usr.sbin/jail/config.c;
// kernel parameters: the SYSCTL_JAIL_PARAM* declarations of sys/kern/kern_jail.c (SOURCES.jailConfig,
// SOURCES.jailKernelParams). Only the names read there are listed: anything else is reported, so
// a new parameter must be looked up upstream and added here with its source.

const INTERNAL = [
  'allow.dying',
  'command',
  'depend',
  'exec.clean',
  'exec.consolelog',
  'exec.fib',
  'exec.jail_user',
  'exec.poststart',
  'exec.poststop',
  'exec.prepare',
  'exec.prestart',
  'exec.prestop',
  'exec.release',
  'exec.created',
  'exec.start',
  'exec.stop',
  'exec.system_jail_user',
  'exec.system_user',
  'exec.timeout',
  'interface',
  'ip_hostname',
  'mount',
  'mount.devfs',
  'mount.fdescfs',
  'mount.procfs',
  'mount.fstab',
  'stop.timeout',
  'vnet.interface',
];

const KERNEL = [
  'jid',
  'parent',
  'name',
  'path',
  'securelevel',
  'osreldate',
  'osrelease',
  'enforce_statfs',
  'devfs_ruleset',
  'persist',
  'vnet',
  'dying',
  'children.cur',
  'children.max',
  'host',
  'host.hostname',
  'host.domainname',
  'ip4.addr',
  'ip6.addr',
  'allow.chflags',
  'allow.mount',
  'allow.raw_sockets',
  'allow.set_hostname',
  'allow.socket_af',
  'allow.sysvipc',
  // SYSCTL_JAIL_PARAM_SYS_NODE in sys/kern/sysv_shm.c, sysv_sem.c, sysv_msg.c: "disable",
  // "new" or "inherit" (libjail jailparam_import() for a jailsys parameter).
  'sysvshm',
  'sysvsem',
  'sysvmsg',
];

const JAILSYS = new Set(['sysvshm', 'sysvsem', 'sysvmsg']);

/** Boolean and integer internal parameters (PF_BOOL / PF_INT in config.c). */
const BOOLEAN = new Set([
  'allow.dying',
  'exec.clean',
  'exec.system_jail_user',
  'ip_hostname',
  'mount.devfs',
  'mount.fdescfs',
  'mount.procfs',
  'persist',
]);
const INTEGER = new Set([
  'exec.fib',
  'exec.timeout',
  'stop.timeout',
  'securelevel',
  'enforce_statfs',
  'devfs_ruleset',
  'children.max',
  'jid',
]);

export const JAIL_PARAMETERS: ReadonlySet<string> = new Set([...INTERNAL, ...KERNEL]);

/** `nopersist` / `allow.noraw_sockets` name the boolean with a "no" prefix on the last part. */
function baseName(name: string): string {
  if (JAIL_PARAMETERS.has(name)) return name;
  const dot = name.lastIndexOf('.');
  const last = name.slice(dot + 1);
  return last.startsWith('no') ? `${name.slice(0, dot + 1)}${last.slice(2)}` : name;
}

/** Problems with one `name` or `name=value` jail parameter. */
export function jailParameterProblems(name: string, value?: string): string[] {
  const base = baseName(name);
  if (!JAIL_PARAMETERS.has(base)) return [`unknown jail parameter "${name}"`];
  if (value === undefined) return [];
  if (BOOLEAN.has(base) && !/^(true|false|-?\d+)$/i.test(value)) {
    return [`${name}: unknown boolean value "${value}"`];
  }
  if (INTEGER.has(base) && !/^-?\d+$/.test(value)) return [`${name}: non-integer value "${value}"`];
  if (JAILSYS.has(base) && !/^(disable|new|inherit|[012])$/.test(value)) {
    return [`${name}: unknown jailsys value "${value}"`];
  }
  return [];
}

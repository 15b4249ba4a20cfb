// `/usr/sbin/jail` and `/usr/sbin/jls` of the fake host. jail -c reads the config file from the
// fake's files, mounts devfs, moves the vnet interface and runs exec.start (the service).
import { type FakeState, fail, ok, type ToolResult, UnsupportedCommandError } from './state.js';

interface ParsedConf {
  path: string;
  vnetInterface: string | null;
  mountDevfs: boolean;
  consoleLog: string | null;
  starts: string[];
}

/** Parses the subset of jail.conf(5) the driver writes: `key = "value";`, `key += "…";`, `key;`. */
export function parseJailConf(text: string): ParsedConf {
  const conf: ParsedConf = {
    path: '',
    vnetInterface: null,
    mountDevfs: false,
    consoleLog: null,
    starts: [],
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const match = /^([\w.]+)\s*(\+?=)\s*"((?:[^"\\]|\\.)*)";$/.exec(line);
    if (match) {
      const [, key, , value = ''] = match;
      if (key === 'path') conf.path = value;
      if (key === 'vnet.interface') conf.vnetInterface = value;
      if (key === 'exec.start') conf.starts.push(value);
      if (key === 'exec.consolelog') conf.consoleLog = value;
    } else if (line === 'mount.devfs;') {
      conf.mountDevfs = true;
    }
  }
  return conf;
}

export function jailTool(state: FakeState, argv: readonly string[]): ToolResult {
  const args = argv.slice(1);
  if (args.length === 4 && args[0] === '-f' && args[2] === '-c') {
    return create(state, args[1] ?? '', args[3] ?? '');
  }
  if (args.length === 4 && args[0] === '-f' && args[2] === '-r') {
    return remove(state, args[3] ?? '', parseConf(state, args[1] ?? '')?.mountDevfs ?? false);
  }
  if (args.length === 2 && args[0] === '-r') return removeWithDefaultConf(state, args[1] ?? '');
  if (args.length === 2 && args[0] === '-R') return remove(state, args[1] ?? '', false);
  throw new UnsupportedCommandError(argv);
}

/** The file jail(8) reads without -f (usr.sbin/jail/jail.8: "the default /etc/jail.conf"). */
const DEFAULT_CONF = '/etc/jail.conf';

/**
 * `jail -r NAME` without -f loads /etc/jail.conf first: config.c load_config() exits 1 (err(1,
 * "%s", cfname)) when it cannot open it; when it can, the admin's parameters (exec.prestop,
 * exec.stop, …) apply to the removal. Both are modelled: a missing file fails, a present one is
 * recorded in removedWithAdminConf.
 */
function removeWithDefaultConf(state: FakeState, name: string): ToolResult {
  if (!state.files.has(DEFAULT_CONF))
    return fail(`jail: ${DEFAULT_CONF}: No such file or directory`);
  const result = remove(state, name, false);
  if (result.exitCode === 0) state.removedWithAdminConf.push(name);
  return result;
}

function parseConf(state: FakeState, path: string): ParsedConf | null {
  const file = state.files.get(path);
  return file ? parseJailConf(file.content) : null;
}

function create(state: FakeState, confPath: string, name: string): ToolResult {
  const conf = parseConf(state, confPath);
  if (!conf) return fail(`jail: ${confPath}: No such file or directory`);
  const existing = state.jails.get(name);
  if (existing && !existing.dying) return fail(`jail: ${name}: already exists`);
  // jail(8) needs `path` to be a directory, not a mount point (kern_jail.c kern_jail_set():
  // namei() + VDIR check). An unmounted clone's mount point is an empty directory: the jail is
  // made, and its first exec.start finds no /bin/sh there (command.c run_command() execs the
  // command through _PATH_BSHELL inside the jail), so jail(8) removes it again and exits 1.
  const mounted = state.mounts.some((m) => m.mountpoint === conf.path && m.fstype === 'zfs');
  if (!mounted && !state.directories.has(conf.path)) {
    return fail(`jail: ${name}: path ${conf.path}: No such file or directory`);
  }
  if (!mounted && !state.files.has(`${conf.path}/bin/sh`)) {
    return fail(`jail: ${name}: exec /bin/sh: No such file or directory`);
  }
  const vnetIf = conf.vnetInterface === null ? null : state.interfaces.get(conf.vnetInterface);
  if (conf.vnetInterface !== null && (!vnetIf || vnetIf.vnetOf !== null)) {
    return fail(`jail: ${name}: vnet.interface ${conf.vnetInterface}: Device not configured`);
  }
  // All exec.start commands must exit 0 or jail(8) removes the jail again, undoing the mounts.
  if (state.failExecStart || conf.starts.length === 0) {
    state.failExecStart = false;
    return fail(`jail: ${name}: ${conf.starts.at(-1) ?? 'exec.start'}: failed`);
  }
  // exec.consolelog is opened O_CREAT in its directory, not the directory itself: a missing one
  // fails the start (usr.sbin/jail/command.c run_command(): "open %s: %s", failed(j)); jail(8)
  // then removes the jail and exits 1.
  const logDir = conf.consoleLog?.slice(0, conf.consoleLog.lastIndexOf('/')) ?? null;
  if (logDir !== null && !state.directories.has(logDir)) {
    return fail(`jail: ${name}: open ${conf.consoleLog}: No such file or directory`);
  }
  const missingOwner = conf.starts
    .map((command) => /^\/usr\/bin\/install .*-o (\S+)/.exec(command)?.[1])
    .find((user) => user !== undefined && !state.jailUsers.has(user));
  if (missingOwner !== undefined) {
    // usr.bin/xinstall/xinstall.c: errx(EX_NOUSER, "unknown user %s"); the exec.start fails.
    const command = conf.starts.find((c) => c.includes(`-o ${missingOwner}`)) ?? '';
    return fail(`install: unknown user ${missingOwner}\njail: ${name}: ${command}: failed`);
  }
  const service = conf.starts.find(
    (command) => command.startsWith('/usr/sbin/daemon ') && command.includes(' /usr/bin/env '),
  );
  if (service !== undefined && state.processes !== null) {
    const read = (pathInJail: string) => state.files.get(`${conf.path}${pathInJail}`)?.content;
    // Every daemon(8) of exec.start: a desktop jail's Xvfb and the service.
    const daemons = conf.starts.filter((command) => command.startsWith('/usr/sbin/daemon '));
    const problem = state.processes.start(name, daemons, read);
    if (problem !== null) return fail(`jail: ${name}: ${problem}`);
  }
  if (vnetIf) vnetIf.vnetOf = name;
  if (conf.mountDevfs) {
    state.mounts.push({ device: 'devfs', mountpoint: `${conf.path}/dev`, fstype: 'devfs' });
  }
  // daemon(8) -u: usr.sbin/daemon/daemon.c calls restrict_process() in the forked child, after
  // daemon(3) detached, so an unknown user never fails exec.start: the child exits with
  // "daemon: unknown user: NAME" on the jail's console and the service never runs.
  const unknownUsers = conf.starts
    .map((command) => /^\/usr\/sbin\/daemon .*?-u (\S+)/.exec(command)?.[1])
    .filter((user): user is string => user !== undefined && !state.jailUsers.has(user));
  if (conf.consoleLog !== null) {
    const said = unknownUsers.map((user) => `daemon: unknown user: ${user}\n`).join('');
    state.files.set(conf.consoleLog, { content: `${name} console\n${said}`, mode: 0o600, uid: 0 });
  }
  const serviceRuns = service !== undefined && unknownUsers.length === 0;
  const jid = state.nextJid;
  state.nextJid += 1;
  state.jails.set(name, {
    jid,
    path: conf.path,
    vnetInterface: conf.vnetInterface,
    dying: false,
    dyingPolls: 0,
    serviceRunning: serviceRuns,
    serviceAddress: /CLAWDIE_JAIL_HOST=(\S+)/.exec(service ?? '')?.[1] ?? null,
  });
  return ok(`${name}: created\n`);
}

function remove(state: FakeState, name: string, unmountDevfs: boolean): ToolResult {
  const jail = state.jails.get(name);
  if (!jail || jail.dying) return fail(`jail: "${name}" not found`);
  jail.serviceRunning = false;
  state.processes?.stop(name);
  if (unmountDevfs) {
    state.mounts = state.mounts.filter((m) => m.mountpoint !== `${jail.path}/dev`);
  }
  if (state.jailDyingPolls > 0) {
    jail.dying = true;
    jail.dyingPolls = state.jailDyingPolls;
  } else {
    jailDied(state, name);
  }
  return ok(`${name}: removed\n`);
}

/**
 * The kernel frees a jail: its vnet is destroyed and the interfaces moved into it return to the
 * host only now (sys/net/vnet.c vnet_destroy() → if_vmove() back to each interface's home vnet),
 * not at `jail -r`: a dying jail keeps its epair end.
 */
function jailDied(state: FakeState, name: string): void {
  state.jails.delete(name);
  for (const iface of state.interfaces.values()) {
    if (iface.vnetOf === name) iface.vnetOf = null;
  }
}

export function jlsTool(state: FakeState, argv: readonly string[]): ToolResult {
  const args = argv.slice(1).join(' ');
  if (args === '-d -v --libxo json') return ok(`${libxo(state)}\n`);
  const match = /^(-d )?-j (\S+) jid$/.exec(args);
  if (!match) throw new UnsupportedCommandError(argv);
  const includeDying = match[1] !== undefined;
  const name = match[2] ?? '';
  const jail = state.jails.get(name);
  if (jail?.dying && includeDying) {
    jail.dyingPolls -= 1;
    if (jail.dyingPolls <= 0) jailDied(state, name);
    return ok(`${jail.jid}\n`);
  }
  if (!jail || jail.dying) return fail(`jls: jail "${name}" not found`);
  return ok(`${jail.jid}\n`);
}

function libxo(state: FakeState): string {
  const jails = [...state.jails.entries()].map(([name, jail]) => ({
    jid: jail.jid,
    hostname: name,
    path: jail.path,
    name,
    state: jail.dying ? 'DYING' : 'ACTIVE',
    cpusetid: jail.jid + 1,
    ipv4_addrs: [],
    ipv6_addrs: [],
  }));
  return JSON.stringify({ __version: '2', 'jail-information': { jail: jails } });
}

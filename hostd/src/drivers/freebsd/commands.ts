// argv builders for the base-system tools the FreeBSD driver runs (freebsd-jails.md §4.1): absolute
// program paths, no shell strings, no Bastille on the per-task path.
import { type InsideTarget, probeArgv } from '../inside-probe.js';
import type { FreeBsdLayout, TaskNames } from './names.js';

export const BIN = Object.freeze({
  zfs: '/sbin/zfs',
  jail: '/usr/sbin/jail',
  jls: '/usr/sbin/jls',
  jexec: '/usr/sbin/jexec',
  pfctl: '/sbin/pfctl',
  rctl: '/usr/bin/rctl',
  ifconfig: '/sbin/ifconfig',
  mkdir: '/bin/mkdir',
  install: '/usr/bin/install',
  daemon: '/usr/sbin/daemon',
  env: '/usr/bin/env',
  node: '/usr/local/bin/node',
  /** x11-servers/xorg-vfbserver in the template. */
  xvfb: '/usr/local/bin/Xvfb',
  mount: '/sbin/mount',
  umount: '/sbin/umount',
  sysctl: '/sbin/sysctl',
  kldstat: '/sbin/kldstat',
  kldload: '/sbin/kldload',
  devfs: '/sbin/devfs',
});

export type Argv = readonly string[];

/** User properties set on every clone; they are the reconciliation key across restarts. */
export interface CloneProperties {
  quota: string;
  taskId: string;
  generation: string;
  expiresEpochSeconds: number;
  /** The X display the jail serves (`:0`), recorded as `hostd:display`; null: no display. */
  display: string | null;
}

/** The user properties every inventory reads, `-` when unset. */
const INVENTORY_COLUMNS = 'name,hostd:task,hostd:expires,hostd:display';

export const zfs = {
  clone(snapshot: string, dataset: string, props: CloneProperties): Argv {
    return [
      BIN.zfs,
      'clone',
      ...['-o', `quota=${props.quota}`, '-o', `hostd:task=${props.taskId}`],
      ...[
        '-o',
        `hostd:gen=${props.generation}`,
        '-o',
        `hostd:expires=${props.expiresEpochSeconds}`,
      ],
      ...(props.display === null ? [] : ['-o', `hostd:display=${props.display}`]),
      snapshot,
      dataset,
    ];
  },
  exists: (dataset: string): Argv => [BIN.zfs, 'list', '-H', '-o', 'name', dataset],
  inventory: (layout: FreeBsdLayout): Argv => [
    ...[BIN.zfs, 'list', '-H', '-p', '-o', INVENTORY_COLUMNS],
    ...['-r', '-d', '1', '-t', 'filesystem', layout.tasksDataset],
  ],
  /** One task's dataset with the inventory's columns; exits 1 when it does not exist. */
  describe: (dataset: string): Argv => [
    BIN.zfs,
    'list',
    '-H',
    '-p',
    '-o',
    INVENTORY_COLUMNS,
    dataset,
  ],
  destroy: (dataset: string, force: boolean): Argv => [
    BIN.zfs,
    'destroy',
    force ? '-rf' : '-r',
    dataset,
  ],
};

export const epair = {
  create: (names: TaskNames): Argv => [BIN.ifconfig, names.epairUnit, 'create'],
  rename: (from: string, to: string): Argv => [BIN.ifconfig, from, 'name', to],
  addressHostEnd: (names: TaskNames, layout: FreeBsdLayout): Argv => [
    ...[BIN.ifconfig, names.hostIf, 'inet', `${names.hostIp}/30`],
    ...['up', 'group', layout.interfaceGroup],
  ],
  show: (name: string): Argv => [BIN.ifconfig, name],
  destroy: (name: string): Argv => [BIN.ifconfig, name, 'destroy'],
  list: (): Argv => [BIN.ifconfig, '-l'],
};

export const pf = {
  load: (names: TaskNames): Argv => [BIN.pfctl, '-a', names.anchor, '-f', names.pfPath],
  showRules: (anchor: string): Argv => [BIN.pfctl, '-a', anchor, '-sr'],
  listAnchors: (layout: FreeBsdLayout): Argv => [BIN.pfctl, '-a', layout.pfAnchor, '-s', 'Anchors'],
  flushRules: (anchor: string): Argv => [BIN.pfctl, '-a', anchor, '-F', 'rules'],
  flushTables: (anchor: string): Argv => [BIN.pfctl, '-a', anchor, '-F', 'Tables'],
  killStatesFrom: (ip: string): Argv => [BIN.pfctl, '-k', ip],
  killStatesTo: (ip: string): Argv => [BIN.pfctl, '-k', '0.0.0.0/0', '-k', ip],
  showStates: (): Argv => [BIN.pfctl, '-ss'],
};

export const rctl = {
  add: (rules: readonly string[]): Argv => [BIN.rctl, '-a', ...rules],
  show: (subject: string): Argv => [BIN.rctl, subject],
  showAll: (): Argv => [BIN.rctl],
  remove: (subject: string): Argv => [BIN.rctl, '-r', subject],
};

export const jail = {
  create: (names: TaskNames): Argv => [BIN.jail, '-f', names.confPath, '-c', names.jail],
  /**
   * With the task's config file jail(8) also runs the stop hooks and unmounts devfs. Without it,
   * `-R`: a bare `-r` would read the admin's /etc/jail.conf (jail(8) -f: "instead of the default
   * /etc/jail.conf"; config.c load_config() exits 1 when it cannot be opened), while -R "removes
   * an existing jail without using the configuration file".
   */
  remove: (names: TaskNames, withConfig: boolean): Argv =>
    withConfig ? [BIN.jail, '-f', names.confPath, '-r', names.jail] : [BIN.jail, '-R', names.jail],
  /** Removes without running any hooks; leaves devfs mounted. */
  removeRaw: (name: string): Argv => [BIN.jail, '-R', name],
  jid: (name: string, includeDying: boolean): Argv =>
    includeDying ? [BIN.jls, '-d', '-j', name, 'jid'] : [BIN.jls, '-j', name, 'jid'],
  inventory: (): Argv => [BIN.jls, '-d', '-v', '--libxo', 'json'],
  /**
   * The connection probe inside the jail, as the service user: jexec(8) `-U username` is a user
   * of the jail's own passwd (jexec.c: getopt "nu:U:", GET_USER_INFO after jail_attach).
   */
  exec: (names: TaskNames, layout: FreeBsdLayout, target: InsideTarget): Argv => [
    ...[BIN.jexec, '-U', layout.serviceUser, names.jail],
    ...probeArgv(BIN.node, target),
  ],
};

export const mounts = {
  list: (): Argv => [BIN.mount, '-p'],
  forceUnmount: (path: string): Argv => [BIN.umount, '-f', path],
};

/** Start-up preflight (freebsd-jails.md §2.9). */
export const preflight = {
  racctEnabled: (): Argv => [BIN.sysctl, '-n', 'kern.racct.enable'],
  pfInfo: (): Argv => [BIN.pfctl, '-s', 'info'],
  mainRules: (): Argv => [BIN.pfctl, '-sr'],
  snapshotExists: (snapshot: string): Argv => [
    ...[BIN.zfs, 'list', '-H', '-o', 'name', '-t', 'snapshot', snapshot],
  ],
  /** `1` on a kernel built with VIMAGE; the OID is absent (exit 1) without it. */
  vimage: (): Argv => [BIN.sysctl, '-n', 'kern.features.vimage'],
  /** Exit 0 when the module is in the kernel (loaded or compiled in), 1 otherwise; prints nothing. */
  epairLoaded: (): Argv => [BIN.kldstat, '-q', '-m', 'if_epair'],
  /** What ifconfig's clone create would do itself; -n: no error when it is already there. */
  loadEpair: (): Argv => [BIN.kldload, '-n', 'if_epair'],
  /** jail(8) opens exec.consolelog there; -p: an existing directory is left as it is. */
  makeLogDir: (dir: string): Argv => [BIN.mkdir, '-p', '-m', '0750', dir],
  /** The rules of devfs ruleset N, one per line (`100 include 1`); nothing when it is not loaded. */
  devfsRuleset: (ruleset: number): Argv => [BIN.devfs, 'rule', '-s', String(ruleset), 'show'],
  /** Exit 0 when ipfw is in the kernel (loaded or compiled in). */
  ipfwLoaded: (): Argv => [BIN.kldstat, '-q', '-m', 'ipfw'],
  /** `1` when ipfw's default rule accepts (a boot tunable); `0`: it denies. */
  ipfwDefaultToAccept: (): Argv => [BIN.sysctl, '-n', 'net.inet.ip.fw.default_to_accept'],
};

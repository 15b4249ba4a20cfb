// The state model of the fake FreeBSD host (freebsd-jails.md §4.2): datasets, snapshots, jails,
// interfaces, PF anchors and states, rctl rules, mounts, files and in-jail processes.

export interface FakeDataset {
  origin: string | null;
  props: Map<string, string>;
  mountpoint: string | null;
  mounted: boolean;
}

export interface FakeJail {
  jid: number;
  path: string;
  vnetInterface: string | null;
  /** True once removed while the kernel still holds it (`jls -d` shows it). */
  dying: boolean;
  /** `jls -d` polls left before a dying jail disappears. */
  dyingPolls: number;
  /** The in-jail service process started by the last exec.start. */
  serviceRunning: boolean;
  /** `CLAWDIE_JAIL_HOST` of that service (its listen address). */
  serviceAddress: string | null;
}

export interface FakeInterface {
  /** Cloner unit the pair was created with, e.g. `epair1007`. */
  unit: string;
  peer: string;
  groups: Set<string>;
  inet: string | null;
  /** The jail whose vnet holds this end, or null when it is in the host. */
  vnetOf: string | null;
}

export interface FakeFile {
  content: string;
  mode: number;
  uid: number;
}

export interface FakeMount {
  device: string;
  mountpoint: string;
  fstype: string;
}

/**
 * Real processes behind the jails' exec.start, when a test wires them (e.g. the real jail-service):
 * otherwise the service is only modelled (`serviceRunning`).
 */
export interface FakeJailProcesses {
  /**
   * Runs jail `name`'s daemon(8) commands of exec.start (a desktop jail's Xvfb, the service);
   * `read` reads a file inside the jail. Returns why they cannot run (jail -c then fails as a
   * failing exec.start does), or null once started.
   */
  start(
    name: string,
    commands: readonly string[],
    read: (pathInJail: string) => string | undefined,
  ): string | null;
  /** Kills the jail's processes (jail -r). */
  stop(name: string): void;
  /** A real health probe of the jail's service, or null when it has no process. */
  health(name: string, token: string): Promise<boolean> | null;
}

export interface FakeState {
  datasets: Map<string, FakeDataset>;
  /** snapshot name (`ds@snap`) → nothing but existence; clones are datasets whose origin is it. */
  snapshots: Set<string>;
  jails: Map<string, FakeJail>;
  interfaces: Map<string, FakeInterface>;
  /** anchor path → rules (one per line). */
  anchors: Map<string, string[]>;
  /** Normalised rules as `rctl` prints them (amounts in bytes). */
  rctlRules: string[];
  pfStates: string[];
  mounts: FakeMount[];
  files: Map<string, FakeFile>;
  nextJid: number;
  racctEnabled: boolean;
  pfEnabled: boolean;
  mainRules: string[];
  /** Extra "busy" answers per dataset for `zfs destroy -r` (a process with its cwd below it). */
  busy: Map<string, number>;
  /** How many `jls -d` polls a removed jail stays dying. */
  jailDyingPolls: number;
  /** `never`: the service never answers its health check. */
  health: 'ok' | 'never';
  /** When true, the next exec.start fails (the service binary crashes) and no jail is made. */
  failExecStart: boolean;
  /** Real in-jail processes, when a test wires them; null: services are modelled only. */
  processes: FakeJailProcesses | null;
  /** Host directories that matter to a tool (jail(8) opens exec.consolelog in one). */
  directories: Set<string>;
  /** `sysctl kern.features.vimage` exists and is 1 (a VIMAGE kernel). */
  vimage: boolean;
  /** Kernel modules `kldstat -m` finds. */
  kernelModules: Set<string>;
  /** Jails removed by a `jail -r` that read the admin's /etc/jail.conf (its stop hooks ran). */
  removedWithAdminConf: string[];
  /** Users in the template's /etc/passwd (what install -o and daemon -u resolve in a jail). */
  jailUsers: Set<string>;
  /** Loaded devfs rulesets → their rules as `devfs rule -s N show` prints them. */
  devfsRulesets: Map<number, string[]>;
  /** The boot tunable net.inet.ip.fw.default_to_accept (read only when ipfw is in kernelModules). */
  ipfwDefaultToAccept: boolean;
}

export const TEMPLATE_DATASET = 'zroot/bastille/jails/browser/root';
export const TEMPLATE_SNAPSHOT = `${TEMPLATE_DATASET}@hostd-g0001`;

function dataset(mountpoint: string | null, origin: string | null = null): FakeDataset {
  return { origin, props: new Map(), mountpoint, mounted: mountpoint !== null };
}

/** The names `clawdie setup` prepares, as hostd's FreeBSD layout has them. */
export interface PreparedLayout {
  tasksDataset: string;
  jailsRoot: string;
  templateSnapshot: string;
  pfAnchor: string;
  interfaceGroup: string;
}

export const DEFAULT_PREPARED: PreparedLayout = {
  tasksDataset: 'zroot/hostd/tasks',
  jailsRoot: '/var/hostd/jails',
  templateSnapshot: TEMPLATE_SNAPSHOT,
  pfAnchor: 'hostd',
  interfaceGroup: 'hostdtask',
};

/** `a/b/c` → `a`, `a/b` (the parents `zfs create -p` and Bastille make). */
function parents(name: string): string[] {
  const parts = name.split('/');
  return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** A host prepared by `clawdie setup`: template snapshot and the hostd tasks dataset exist. */
export function preparedHostState(layout: PreparedLayout = DEFAULT_PREPARED): FakeState {
  const template = layout.templateSnapshot.slice(0, layout.templateSnapshot.indexOf('@'));
  const templateJail = template.slice(0, template.lastIndexOf('/'));
  const pool = template.split('/')[0] ?? '';
  // Bastille mounts `<pool>/bastille/…` at `/usr/local/bastille/…`.
  const bastille = (name: string) => dataset(`/usr/local/${name.slice(pool.length + 1)}`);
  const unmounted = (names: string[]) =>
    names.map((name): [string, FakeDataset] => [name, dataset(null)]);
  return {
    datasets: new Map([
      ...unmounted([...parents(template), ...parents(layout.tasksDataset)]),
      [pool, dataset(`/${pool}`)],
      [templateJail, bastille(templateJail)],
      [template, bastille(template)],
      [layout.tasksDataset, dataset(layout.jailsRoot)],
    ]),
    snapshots: new Set([layout.templateSnapshot]),
    jails: new Map(),
    interfaces: new Map(),
    anchors: new Map(),
    rctlRules: [],
    pfStates: [],
    mounts: [
      { device: 'zroot/ROOT/default', mountpoint: '/', fstype: 'zfs' },
      { device: 'devfs', mountpoint: '/dev', fstype: 'devfs' },
      { device: layout.tasksDataset, mountpoint: layout.jailsRoot, fstype: 'zfs' },
    ],
    files: new Map(),
    nextJid: 1,
    racctEnabled: true,
    pfEnabled: true,
    mainRules: [
      `anchor "${layout.pfAnchor}/*" all`,
      `block drop log quick on ${layout.interfaceGroup} all`,
    ],
    busy: new Map(),
    jailDyingPolls: 0,
    health: 'ok',
    failExecStart: false,
    processes: null,
    // `clawdie setup` makes the console log directory (steps/freebsd-template.ts).
    directories: new Set(['/var/log', '/var/log/hostd', '/var/run']),
    vimage: true,
    kernelModules: new Set(['if_epair']),
    removedWithAdminConf: [],
    // setup's `pw -R … useradd clawdie` (steps/freebsd-template.ts).
    jailUsers: new Set(['root', 'clawdie']),
    // rc.d/devfs loads /etc/defaults/devfs.rules at boot: devfsrules_jail is ruleset 4.
    devfsRulesets: new Map([
      [
        4,
        [
          '100 include 1',
          '200 include 2',
          '300 include 3',
          '400 path fuse unhide',
          '500 path zfs unhide',
        ],
      ],
    ]),
    ipfwDefaultToAccept: false,
  };
}

/** The result helpers every fake tool uses. */
export interface ToolResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export const ok = (stdout = '', stderr = ''): ToolResult => ({ exitCode: 0, stdout, stderr });
export const fail = (stderr: string, exitCode = 1): ToolResult => ({
  exitCode,
  stdout: '',
  stderr: stderr.endsWith('\n') ? stderr : `${stderr}\n`,
});

/** Thrown for argv forms the fake does not implement: the driver must stay within the model. */
export class UnsupportedCommandError extends Error {
  constructor(argv: readonly string[]) {
    super(`FakeFreeBSD: unsupported command: ${argv.join(' ')}`);
  }
}

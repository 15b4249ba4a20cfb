// Every FreeBSD resource of a task derives from its namespace and index NNN (freebsd-jails.md
// §2.1), so teardown and reconciliation work from names alone, without a journal, and never reach
// another namespace's tasks (clone-namespace.ts).
import {
  type CloneNamespace,
  DEFAULT_NAMESPACE,
  SLOT_ADDRESSES,
  slotAddressOffset,
} from '../clone-namespace.js';
import { cloneName, MAX_CLONE_INDEX, parseCloneName } from '../jail-driver.js';

/** Host-wide locations and the template generation the FreeBSD driver works with. */
export interface FreeBsdLayout {
  /** Parent dataset of every task clone, owned by hostd only (Bastille never sees it). */
  readonly tasksDataset: string;
  /** Mountpoint of `tasksDataset`; each clone is mounted at `<jailsRoot>/<jail>`. */
  readonly jailsRoot: string;
  /** The template snapshot every clone is made from, e.g. `zroot/bastille/jails/browser/root@hostd-g0001`. */
  readonly templateSnapshot: string;
  /** Regenerable per-task files (jail.conf, PF anchor file). */
  readonly runDir: string;
  /** Console logs of the task jails. */
  readonly logDir: string;
  /** Numeric uid of the service user inside the template (never looked up in the host's passwd). */
  readonly serviceUid: number;
  /** Name of that user; resolved by daemon(8) inside the jail, against the template's passwd. */
  readonly serviceUser: string;
  /** Entry point of the jail-service inside the template. */
  readonly serviceEntry: string;
  /** ZFS quota of each clone (counts only what the task writes). */
  readonly quota: string;
  /** Port the in-jail service listens on, on the jail end of the epair. */
  readonly servicePort: number;
  /** Port of the host-side egress proxy, on the host end of the epair. */
  readonly proxyPort: number;
  /** PF anchor holding every task's sub-anchor (`<pfAnchor>/browsertaskNNN`); the main ruleset has `anchor "<pfAnchor>/*"`. */
  readonly pfAnchor: string;
  /** Interface group of every task's host end; the main PF ruleset blocks the whole group. */
  readonly interfaceGroup: string;
  /** The tasks this hostd owns: their names carry it; another namespace's are never touched. */
  readonly namespace: CloneNamespace;
}

export const defaultFreeBsdLayout: FreeBsdLayout = Object.freeze({
  tasksDataset: 'zroot/hostd/tasks',
  jailsRoot: '/var/hostd/jails',
  templateSnapshot: 'zroot/bastille/jails/browser/root@hostd-g0001',
  runDir: '/var/run/hostd',
  logDir: '/var/log/hostd',
  serviceUid: 9223,
  serviceUser: 'clawdie',
  serviceEntry: '/usr/local/libexec/clawdie/jail-service/dist/main.js',
  quota: '2G',
  servicePort: 9223,
  proxyPort: 3128,
  pfAnchor: 'hostd',
  interfaceGroup: 'hostdtask',
  namespace: DEFAULT_NAMESPACE,
});

/**
 * Renamed epair ends are `bt<infix>NNNa` (host) / `…b` (jail). Epairs are created with a unit
 * derived from the slot and index (`epair1007` for task 7 of the default namespace, slot 0;
 * `epair7007` for slot 6), so even an epair left unrenamed by a crash between `create` and `name`
 * is attributable to its namespace and task.
 */
export const EPAIR_UNIT_PATTERN = /^epair(\d+)(\d{3})[ab]$/;

/** All names and addresses of one task. */
export interface TaskNames {
  readonly index: number;
  readonly jail: string;
  readonly dataset: string;
  readonly root: string;
  readonly confPath: string;
  readonly pfPath: string;
  readonly anchor: string;
  readonly hostIf: string;
  readonly jailIf: string;
  readonly hostIp: string;
  readonly jailIp: string;
  readonly rctlSubject: string;
  readonly consoleLog: string;
  /** Path of the bearer-token file inside the clone (relative to the jail's root). */
  readonly tokenFileInJail: string;
  /** Host path of the token file (inside the mounted clone). */
  readonly tokenFile: string;
  /** Epair cloner unit used at creation, e.g. `epair1007`. */
  readonly epairUnit: string;
  readonly serviceUrl: string;
}

/** Token file location inside the clone, read by the jail-service via CLAWDIE_JAIL_TOKEN_FILE. */
export const TOKEN_FILE_IN_JAIL = '/usr/local/etc/clawdie/jail.token';

/** Derives every resource name of task `index` (1…999). Throws on an out-of-range index (a bug). */
export function taskNames(index: number, layout: FreeBsdLayout = defaultFreeBsdLayout): TaskNames {
  const { namespace } = layout;
  const jail = cloneName(index, namespace);
  const short = `bt${namespace.infix}${jail.slice(-3)}`;
  // A /30 at 10.78.0.0 + 4096·slot + 4·NNN: host .+1, jail .+2 (default index 7 → 10.78.0.29 / .30).
  const base = slotAddressOffset(namespace) + 4 * index;
  const octet3 = Math.floor(base / 256);
  const octet4 = base % 256;
  const hostIp = `10.78.${octet3}.${octet4 + 1}`;
  const jailIp = `10.78.${octet3}.${octet4 + 2}`;
  return {
    index,
    jail,
    dataset: `${layout.tasksDataset}/${jail}`,
    root: `${layout.jailsRoot}/${jail}`,
    confPath: `${layout.runDir}/${jail}.conf`,
    pfPath: `${layout.runDir}/${jail}.pf`,
    anchor: `${layout.pfAnchor}/${jail}`,
    hostIf: `${short}a`,
    jailIf: `${short}b`,
    hostIp,
    jailIp,
    rctlSubject: `jail:${jail}`,
    consoleLog: `${layout.logDir}/${jail}.console.log`,
    tokenFileInJail: TOKEN_FILE_IN_JAIL,
    tokenFile: `${layout.jailsRoot}/${jail}${TOKEN_FILE_IN_JAIL}`,
    epairUnit: `epair${(1 + namespace.slot) * 1000 + index}`,
    serviceUrl: `http://${jailIp}:${layout.servicePort}`,
  };
}

/** The index of a `browsertask<infix>NNN` name of the layout's namespace, or null for anything else. */
export function indexOfJailName(
  name: string,
  layout: Pick<FreeBsdLayout, 'namespace'> = defaultFreeBsdLayout,
): number | null {
  return parseCloneName(name, layout.namespace);
}

/**
 * The index behind `bt<infix>NNNa`, `…b` or an unrenamed `epair<unit>a`/`b` of the layout's
 * namespace, or null for anything else (another namespace's interfaces among them).
 */
export function indexOfInterface(
  name: string,
  layout: Pick<FreeBsdLayout, 'namespace'> = defaultFreeBsdLayout,
): number | null {
  const { namespace } = layout;
  const unit = EPAIR_UNIT_PATTERN.exec(name);
  if (unit) {
    const index = Number(unit[2]);
    return Number(unit[1]) === 1 + namespace.slot && index >= 1 ? index : null;
  }
  const prefix = `bt${namespace.infix}`;
  if (!name.startsWith(prefix)) return null;
  const digits = /^(\d{3})[ab]$/.exec(name.slice(prefix.length))?.[1];
  if (digits === undefined) return null;
  const index = Number(digits);
  return index >= 1 ? index : null;
}

/**
 * The index whose /30 holds `address` (10.78.0.0 + 4096·slot + 4·NNN … +3) in the layout's
 * namespace, or null outside its task range.
 */
export function indexOfAddress(
  address: string,
  layout: Pick<FreeBsdLayout, 'namespace'> = defaultFreeBsdLayout,
): number | null {
  const match = /^10\.78\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (!match) return null;
  const offset = Number(match[1]) * 256 + Number(match[2]) - slotAddressOffset(layout.namespace);
  if (offset < 0 || offset >= SLOT_ADDRESSES) return null;
  const index = Math.floor(offset / 4);
  return index >= 1 && index <= MAX_CLONE_INDEX ? index : null;
}

// Builds a real LinuxDriver for tests (root only) and checks the host for leftovers.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { ChildRegistry, ExecFileRunner, SpawnLauncher } from '@clawdie/kit/runner';
import {
  type CloneNamespace,
  cloneNamespace,
  SLOT_ADDRESSES,
  slotBase,
} from '../../../hostd/src/drivers/clone-namespace.js';
import { untraversableAncestors } from '../../../hostd/src/drivers/linux/code-access.js';
import {
  LinuxDriver,
  type LinuxDriverOptions,
} from '../../../hostd/src/drivers/linux/linux-driver.js';
import { type LinuxCloneNames, linuxNames } from '../../../hostd/src/drivers/linux/names.js';
import { jailServiceCommand } from '../../../hostd/src/drivers/select-driver.js';
import { missingCapabilities } from '../../support/capabilities.js';

export const TEST_STATE_ROOT = '/run/clawdie-hostd-test';
export const TEST_CGROUP = 'clawdie-hostd-test';
export const UID_BASE = 20_000;
/**
 * Tests make real clones only in their own namespaces, never in `default` (production's): a test
 * run on a production host neither sees nor reconciles production clones, and a test hostd of a
 * namespace a live hostd owns refuses to start.
 */
export const TEST_NAMESPACE = cloneNamespace('test');
/** A second test namespace (another slot) for tests of two hostd on one host. */
export const TEST_OTHER_NAMESPACE = cloneNamespace('testb');
/**
 * Three more (slots 8, 13, 14: none shared with the two above) for the fleets of three hostd of
 * the replica drill and bench (test/e2e/replica-fleet.test.ts, bench/replicas-hosts.ts): no other
 * test file makes clones in them.
 */
export const FLEET_NAMESPACES: readonly CloneNamespace[] = ['testc', 'testd', 'teste'].map(
  cloneNamespace,
);
export const TEST_NAMESPACES: readonly CloneNamespace[] = [
  TEST_NAMESPACE,
  TEST_OTHER_NAMESPACE,
  ...FLEET_NAMESPACES,
];

/** The names, uid and display of test clone `index` (default TEST_NAMESPACE). */
export function testNames(index: number, namespace = TEST_NAMESPACE): LinuxCloneNames {
  return linuxNames(index, { stateRoot: TEST_STATE_ROOT, uidBase: UID_BASE, namespace });
}

/** What a real hostd process (main.ts, embedded, verify-host) of the tests runs with. */
export const TEST_HOSTD_ENV = Object.freeze({
  CLAWDIE_HOSTD_NAMESPACE: TEST_NAMESPACE.name,
  CLAWDIE_HOSTD_STATE_DIR: TEST_STATE_ROOT,
  CLAWDIE_HOSTD_CGROUP_NAME: TEST_CGROUP,
  CLAWDIE_HOSTD_UID_BASE: String(UID_BASE),
});

/** Null when the real driver can run here, else what is missing. */
export function linuxDriverMissing(): string | null {
  return missingCapabilities('linux-clones');
}

let noticed = false;

/**
 * Test-environment setup: clones run as unprivileged uids, so the checkout's ancestors must be
 * traversable (o+x). A fresh `mktemp -d` checkout is 0700; grant traverse-only where missing.
 */
export function ensureCodeReachable(paths: readonly string[]): void {
  for (const dir of new Set(paths.flatMap(untraversableAncestors))) {
    chmodSync(dir, statSync(dir).mode | 0o001);
    console.error(`NOTE granted o+x on ${dir} so clone users can reach the jail-service code`);
  }
}

export function createTestDriver(overrides: Partial<LinuxDriverOptions> = {}): LinuxDriver {
  const namespace = overrides.namespace ?? TEST_NAMESPACE;
  if (!TEST_NAMESPACES.includes(namespace)) {
    throw new Error(`tests make clones only in ${TEST_NAMESPACES.map((n) => n.name)}`);
  }
  const service = jailServiceCommand();
  ensureCodeReachable(service.binds.map((bind) => bind.source));
  if (service.notice && !noticed) {
    noticed = true;
    console.error(`NOTE ${service.notice}`);
  }
  return new LinuxDriver({
    runner: new ExecFileRunner(),
    launcher: new SpawnLauncher(new ChildRegistry()),
    stateRoot: TEST_STATE_ROOT,
    cgroupRoot: '/sys/fs/cgroup',
    cgroupGroup: TEST_CGROUP,
    uidBase: UID_BASE,
    namespace,
    servicePort: 9223,
    proxyPort: 3128,
    serviceArgv: service.argv,
    readOnlyDirs: service.binds,
    serviceCwd: service.cwd,
    serviceEnv: { CLAWDIE_LOG_LEVEL: 'warn' },
    templateProfile: null,
    healthTimeoutMs: 30_000,
    ...overrides,
  });
}

/**
 * Everything of any test clone (TEST_NAMESPACES) still on the host: must be empty after every
 * test. Another namespace's clones (a production hostd's) are not the tests' and not counted.
 * `zombies: false` skips exited, unreaped processes: they hold only a pid, and this VM's init
 * (pid 1, which inherits a sandbox's orphans) reaps them 1–2 s late, so per-cycle checks skip
 * them and the final, settled check counts them.
 */
export function hostLeftovers(
  options: { zombies?: boolean; namespaces?: readonly CloneNamespace[] } = {},
): string[] {
  const namespaces = options.namespaces ?? TEST_NAMESPACES;
  const left: string[] = [];
  const netns = execFileSync('/usr/sbin/ip', ['netns', 'list'], { encoding: 'utf8' });
  const links = execFileSync('/usr/sbin/ip', ['-o', 'link', 'show'], { encoding: 'utf8' });
  for (const { infix } of namespaces) {
    const own = new RegExp(`^bt${infix}\\d{3}\\b`);
    for (const line of netns.split('\n')) if (own.test(line)) left.push(`netns ${line}`);
    const link = new RegExp(`^\\d+: bt${infix}\\d{3}h`);
    for (const line of links.split('\n')) if (link.test(line)) left.push(`link ${line}`);
  }
  if (existsSync(TEST_STATE_ROOT)) {
    for (const entry of readdirSync(TEST_STATE_ROOT)) left.push(`dir ${entry}`);
  }
  for (const part of ['unified', 'memory', 'pids', 'cpu', '']) {
    const dir = `/sys/fs/cgroup/${part}/${TEST_CGROUP}`.replace('//', '/');
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) left.push(`cgroup ${dir}/${entry.name}`);
    }
  }
  const testIndex = (uid: number) =>
    namespaces.some((namespace) => {
      const index = uid - slotBase(UID_BASE, namespace);
      return index >= 1 && index <= 999;
    });
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const uid = statSync(`/proc/${pid}`).uid;
      if (!testIndex(uid)) continue;
      if (options.zombies === false && isZombie(pid)) continue;
      left.push(`process ${pid} (uid ${uid})`);
    } catch {
      // Exited meanwhile.
    }
  }
  // Egress proxies (started by the CloneManager, not the driver) listen on a clone's host address.
  for (const socket of listeningTcp()) {
    if (namespaces.some((namespace) => inSlot(socket, namespace))) left.push(`proxy ${socket}`);
  }
  const sockets = existsSync('/tmp/.X11-unix') ? readdirSync('/tmp/.X11-unix') : [];
  for (const entry of sockets.filter((name) => /^X\d+$/.test(name))) {
    if (testIndex(statSync(`/tmp/.X11-unix/${entry}`).uid)) left.push(`display ${entry}`);
  }
  return left;
}

/** True when `address:port` is in the namespace's block of 10.78.0.0/16. */
function inSlot(socket: string, namespace: CloneNamespace): boolean {
  const match = /^10\.78\.(\d+)\.(\d+):/.exec(socket);
  if (!match) return false;
  const offset = Number(match[1]) * 256 + Number(match[2]);
  return Math.floor(offset / SLOT_ADDRESSES) === namespace.slot;
}

/** Every listening IPv4 TCP socket of the host's network namespace, as `address:port`. */
export function listeningTcp(): string[] {
  const listening: string[] = [];
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const [, local, , state] = line.trim().split(/\s+/);
    if (state !== '0A' || !local) continue; // 0A = LISTEN
    const [hex = '', port = ''] = local.split(':');
    const bytes = (hex.match(/../g) ?? []).map((byte) => Number.parseInt(byte, 16)).reverse();
    listening.push(`${bytes.join('.')}:${Number.parseInt(port, 16)}`);
  }
  return listening;
}

/** hostLeftovers after giving exited processes up to 3 s to be reaped. */
export async function settledLeftovers(): Promise<string[]> {
  const deadline = Date.now() + 3000;
  let left = hostLeftovers();
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = hostLeftovers();
  }
  return left;
}

function isZombie(pid: string): boolean {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return /^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
}

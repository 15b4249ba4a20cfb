// Builds a real LinuxDriver for tests (root only) and checks the host for leftovers.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs';
import { untraversableAncestors } from '../../../hostd/src/drivers/linux/code-access.js';
import {
  LinuxDriver,
  type LinuxDriverOptions,
} from '../../../hostd/src/drivers/linux/linux-driver.js';
import { jailServiceCommand } from '../../../hostd/src/drivers/select-driver.js';
import { ExecFileRunner } from '../../../hostd/src/runner/exec-file-runner.js';
import { SpawnLauncher } from '../../../hostd/src/runner/process-launcher.js';

export const TEST_STATE_ROOT = '/run/clawdie-hostd-test';
export const TEST_CGROUP = 'clawdie-hostd-test';
export const UID_BASE = 20_000;

/** Null when the real driver can run here, else what is missing. */
export function linuxDriverMissing(): string | null {
  if (process.platform !== 'linux') return 'not Linux';
  if (process.getuid?.() !== 0) return 'not root';
  for (const program of ['/usr/bin/bwrap', '/usr/sbin/nft', '/usr/sbin/ip', '/usr/bin/Xvfb']) {
    if (!existsSync(program))
      return `${program} missing (apt-get install bubblewrap nftables iproute2 xvfb)`;
  }
  return null;
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
  const service = jailServiceCommand();
  ensureCodeReachable(service.binds.map((bind) => bind.source));
  if (service.notice && !noticed) {
    noticed = true;
    console.error(`NOTE ${service.notice}`);
  }
  return new LinuxDriver({
    runner: new ExecFileRunner(),
    launcher: new SpawnLauncher(),
    stateRoot: TEST_STATE_ROOT,
    cgroupRoot: '/sys/fs/cgroup',
    cgroupGroup: TEST_CGROUP,
    uidBase: UID_BASE,
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

/** Everything of any clone still on the host: must be empty after every test. */
export function hostLeftovers(): string[] {
  const left: string[] = [];
  const netns = execFileSync('/usr/sbin/ip', ['netns', 'list'], { encoding: 'utf8' });
  for (const line of netns.split('\n')) if (/^bt\d{3}\b/.test(line)) left.push(`netns ${line}`);
  const links = execFileSync('/usr/sbin/ip', ['-o', 'link', 'show'], { encoding: 'utf8' });
  for (const line of links.split('\n')) if (/^\d+: bt\d{3}h/.test(line)) left.push(`link ${line}`);
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
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const uid = statSync(`/proc/${pid}`).uid - UID_BASE;
      if (uid >= 1 && uid <= 999) left.push(`process ${pid} (uid ${uid + UID_BASE})`);
    } catch {
      // Exited meanwhile.
    }
  }
  const sockets = existsSync('/tmp/.X11-unix') ? readdirSync('/tmp/.X11-unix') : [];
  for (const entry of sockets.filter((name) => /^X\d+$/.test(name))) {
    const uid = statSync(`/tmp/.X11-unix/${entry}`).uid - UID_BASE;
    if (uid >= 1 && uid <= 999) left.push(`display ${entry}`);
  }
  return left;
}

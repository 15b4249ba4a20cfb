// Linux host preparation (freebsd-jails.md §3.6): the tools the Linux driver needs, the kernel
// features it prefers (a missing one means reduced isolation, reported, not fatal) and the
// template profile every clone's profile is copied from.
import { HEADLESS_SHELL } from '@clawdie/jail-service/chromium-binary';
import type { LinuxSetupConfig } from '../config.js';
import { type Argv, ensure, prerequisite, probe, type SetupStep } from './step.js';

/** Program → Debian package. */
const PROGRAMS: ReadonlyArray<readonly [string, string]> = [
  ['/usr/bin/bwrap', 'bubblewrap'],
  ['/usr/sbin/nft', 'nftables'],
  ['/usr/bin/Xvfb', 'xvfb'],
  ['/usr/sbin/ip', 'iproute2'],
];

export function linuxSteps(config: LinuxSetupConfig): SetupStep[] {
  return [
    prerequisite({
      id: 'os',
      title: 'host is Linux',
      argv: ['/usr/bin/uname', '-s'],
      accept: (r) => r.stdout.trim() === 'Linux',
      hint: 'run clawdie setup on the Linux host (or pass --os freebsd)',
    }),
    linuxPackages(),
    prerequisite({
      id: 'chromium',
      title: `Chromium at ${config.chromiumPath}`,
      argv: ['/bin/test', '-x', config.chromiumPath],
      accept: (r) => r.exitCode === 0,
      hint: 'apt-get install chromium, or set CLAWDIE_CHROMIUM_PATH',
    }),
    prerequisite({
      id: 'headless-shell',
      title: `headless shell at ${HEADLESS_SHELL} (what headless clones start)`,
      argv: ['/bin/test', '-x', HEADLESS_SHELL],
      accept: (r) => r.exitCode === 0,
      hint: 'apt-get install chromium-headless-shell: clones start in about half the time with 0.6x the memory; without it they start the full browser',
      severity: 'recommended',
    }),
    prerequisite({
      id: 'cgroup-v2',
      title: 'cgroup v2 mounted at /sys/fs/cgroup',
      argv: ['/usr/bin/stat', '-f', '-c', '%T', '/sys/fs/cgroup'],
      accept: (r) => r.stdout.trim() === 'cgroup2fs',
      hint: 'boot with systemd.unified_cgroup_hierarchy=1; without it limits use cgroup v1 or none',
      severity: 'recommended',
    }),
    prerequisite({
      id: 'netns',
      title: 'network namespaces can be created',
      argv: ['/usr/bin/unshare', '--net', '/bin/true'],
      accept: (r) => r.exitCode === 0,
      hint: 'run as root (CAP_SYS_ADMIN); otherwise clones fall back to reduced isolation',
      severity: 'recommended',
    }),
    ensure({
      id: 'template-profile',
      title: `template profile ${config.profileDir}`,
      argv: ['/bin/test', '-f', `${config.profileDir}/chromium/Local State`],
      plan: [
        { argv: ['/usr/bin/install', '-d', '-m', '0755', `${config.profileDir}/chromium`] },
        { argv: initProfile(config) },
      ],
    }),
  ];
}

/** One headless Chromium run that initialises the profile (Local State, no first-run UI). */
function initProfile(config: LinuxSetupConfig): Argv {
  return [
    ...[config.chromiumPath, '--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    ...['--no-default-browser-check', '--disable-background-networking', '--disable-sync'],
    `--user-data-dir=${config.profileDir}/chromium`,
    ...['--dump-dom', 'about:blank'],
  ];
}

function linuxPackages(): SetupStep {
  return {
    id: 'packages',
    title: 'bubblewrap, nftables, Xvfb, iproute2',
    async check(context) {
      const missing: string[] = [];
      for (const [program, pkg] of PROGRAMS) {
        if ((await probe(context, ['/bin/test', '-x', program])).exitCode !== 0) missing.push(pkg);
      }
      return {
        done: missing.length === 0,
        detail: missing.length === 0 ? 'all present' : `missing: ${missing.join(' ')}`,
        plan: [
          { argv: ['/usr/bin/apt-get', 'install', '-y', '--no-install-recommends', ...missing] },
        ],
      };
    },
  };
}

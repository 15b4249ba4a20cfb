// The FreeBSD host's preflight (freebsd-jails.md §2.9): what must hold before any clone can be made,
// one sentence each naming the fix; hostd refuses to start on a non-empty answer. Decided off-host
// from the base system's sources (freebsd-src), not run on a real host.
import { preflight, zfs } from './commands.js';
import { type FreeBsdHost, run } from './freebsd-host.js';
import { JAIL_DEVFS_RULESET } from './render.js';

export async function hostPreflight(host: FreeBsdHost): Promise<string[]> {
  const { layout } = host;
  const absent = async (argv: readonly string[]): Promise<string | null> => {
    try {
      return (await run(host, argv)).exitCode === 0 ? null : 'absent';
    } catch (error) {
      return `cannot run ${argv[0]}: ${(error as Error).message} (is this a FreeBSD host with ZFS?)`;
    }
  };
  const snapshot = await absent(preflight.snapshotExists(layout.templateSnapshot));
  if (snapshot !== null && snapshot !== 'absent') return [snapshot];
  const missing: string[] = [];
  if (snapshot === 'absent') {
    missing.push(
      `the template snapshot ${layout.templateSnapshot} does not exist (build the template with \`clawdie setup\`, or set CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT)`,
    );
  }
  if ((await absent(zfs.exists(layout.tasksDataset))) !== null) {
    missing.push(
      `the tasks dataset ${layout.tasksDataset} does not exist (zfs create -p -o mountpoint=${layout.jailsRoot} ${layout.tasksDataset}, or set CLAWDIE_HOSTD_ZFS_TASKS_DATASET)`,
    );
  }
  missing.push(
    ...(await networkStack(host)),
    ...(await consoleLogDir(host)),
    ...(await devfsRuleset(host)),
    ...(await ipfwDefaultDeny(host)),
  );
  return missing;
}

/**
 * The jails mount /dev with JAIL_DEVFS_RULESET. A ruleset that is not loaded is no protection:
 * the kernel makes an empty one on first use (sys/fs/devfs/devfs_rule.c devfs_ruleset_use() →
 * devfs_ruleset_create()), and an empty ruleset hides nothing, so the jail would see every host
 * device. rc.d/devfs loads /etc/defaults/devfs.rules and /etc/devfs.rules at boot; `devfs rule
 * -s N show` (sbin/devfs/rule.c rule_show()) prints one numbered rule per line, nothing for an
 * unknown ruleset.
 */
async function devfsRuleset(host: FreeBsdHost): Promise<string[]> {
  const shown = await run(host, preflight.devfsRuleset(JAIL_DEVFS_RULESET));
  if (shown.exitCode === 0 && /^\d+ /m.test(shown.stdout)) return [];
  const said = shown.stderr.trim().split('\n')[0] ?? '';
  return [
    `devfs ruleset ${JAIL_DEVFS_RULESET} (devfsrules_jail) is not loaded${said ? ` (${said})` : ''}: the jails' /dev would show every host device; load it (service devfs restart reads /etc/defaults/devfs.rules and /etc/devfs.rules)`,
  ];
}

/**
 * ipfw beside PF: once ipfw is in the kernel every VNET starts with it enabled and only its
 * default rule (sys/netpfil/ipfw/ip_fw_pfil.c V_fw_enable = 1 per vnet; ip_fw2.c default rule
 * deny unless the boot tunable net.inet.ip.fw.default_to_accept=1). Each task jail's own vnet
 * would then drop all its traffic, and hostd's health checks with it. Refused with the reason;
 * default_to_accept=1, or no ipfw at all, is fine (hostd's isolation is PF's).
 */
async function ipfwDefaultDeny(host: FreeBsdHost): Promise<string[]> {
  if ((await run(host, preflight.ipfwLoaded())).exitCode !== 0) return [];
  const accept = await run(host, preflight.ipfwDefaultToAccept());
  if (accept.exitCode === 0 && accept.stdout.trim() === '1') return [];
  return [
    'ipfw is in the kernel with its default rule denying (net.inet.ip.fw.default_to_accept is not 1): every VNET task jail starts with ipfw on and only that rule, so its traffic would be dropped; unload ipfw (kldunload ipfw, firewall_enable=NO) or set net.inet.ip.fw.default_to_accept=1 in /boot/loader.conf and reboot',
  ];
}

/** VNET jails need a VIMAGE kernel (jail(8) `vnet`) and epair(4) for their interface. */
async function networkStack(host: FreeBsdHost): Promise<string[]> {
  const missing: string[] = [];
  const vimage = await run(host, preflight.vimage());
  if (vimage.exitCode !== 0 || vimage.stdout.trim() !== '1') {
    missing.push(
      'the kernel has no VIMAGE (sysctl kern.features.vimage is not 1): VNET jails need it (a custom kernel needs `options VIMAGE`)',
    );
  }
  if ((await run(host, preflight.epairLoaded())).exitCode !== 0) {
    const loaded = await run(host, preflight.loadEpair());
    if (loaded.exitCode !== 0) {
      const said = loaded.stderr.trim();
      missing.push(
        `the if_epair module is not loaded and cannot be loaded${said ? ` (${said})` : ''}: kldload if_epair, and add if_epair_load="YES" to /boot/loader.conf`,
      );
    }
  }
  return missing;
}

/**
 * jail(8) opens exec.consolelog with O_CREAT but not its directory: a missing one makes `jail -c`
 * fail (usr.sbin/jail/command.c run_command(): "open %s: %s", then failed()). hostd runs as root
 * and creates it; when it cannot, it says so here rather than at the first task.
 */
async function consoleLogDir(host: FreeBsdHost): Promise<string[]> {
  const dir = host.layout.logDir;
  const made = await run(host, preflight.makeLogDir(dir));
  if (made.exitCode === 0) return [];
  const said = made.stderr.trim();
  return [
    `the console log directory ${dir} is missing and hostd cannot create it${said ? ` (${said})` : ''}: jail(8) fails to start a task without it (install -d -m 0750 ${dir})`,
  ];
}

// The FreeBSD host's preflight (freebsd-jails.md §2.9): what must hold before any clone can be made,
// one sentence each naming the fix; hostd refuses to start on a non-empty answer. Decided off-host
// from the base system's sources (freebsd-src), not run on a real host.
import { preflight, zfs } from './commands.js';
import { type FreeBsdHost, run } from './freebsd-host.js';

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
  missing.push(...(await networkStack(host)), ...(await consoleLogDir(host)));
  return missing;
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

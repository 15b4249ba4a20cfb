// FreeBSD host prerequisites hostd relies on (freebsd-jails.md §2.7, §2.8, §2.9 preflight): checks
// a human fixes (reboot-time tunables, pf.conf), plus Bastille and its ZFS configuration.
import { failClosedRule, mainRulesProblems } from '@clawdie/hostd/host-kit';
import type { FreeBsdSetupConfig } from '../config.js';
import { ensure, prerequisite, probe, type SetupStep } from './step.js';

const BASTILLE_CONF = '/usr/local/etc/bastille/bastille.conf';
const firstLine = (text: string) => text.trim().split('\n')[0] ?? '';

export function freeBsdPrerequisites(config: FreeBsdSetupConfig): SetupStep[] {
  return [
    prerequisite({
      id: 'os',
      title: 'host is FreeBSD',
      argv: ['/usr/bin/uname', '-s'],
      accept: (r) => r.exitCode === 0 && firstLine(r.stdout) === 'FreeBSD',
      hint: 'run clawdie setup on the FreeBSD host (or pass --os linux)',
    }),
    prerequisite({
      id: 'root',
      title: 'running as root',
      argv: ['/usr/bin/id', '-u'],
      accept: (r) => firstLine(r.stdout) === '0',
      hint: 'run as root (doas/sudo)',
    }),
    prerequisite({
      id: 'racct',
      title: 'rctl resource limits enabled',
      argv: ['/sbin/sysctl', '-n', 'kern.racct.enable'],
      accept: (r) => firstLine(r.stdout) === '1',
      hint: 'add kern.racct.enable=1 to /boot/loader.conf and reboot',
    }),
    // No kern.ipc.shm_allow_removed check: sys/kern/sysv_shm.c has defaulted it to 1 since 2015,
    // and task jails have no SysV shared memory at all (no `sysvshm` parameter: ENOSYS there).
    prerequisite({
      id: 'pf-enabled',
      title: 'PF enabled',
      argv: ['/sbin/pfctl', '-s', 'info'],
      accept: (r) => /Status: Enabled/.test(r.stdout),
      hint: 'sysrc pf_enable=YES && service pf start',
    }),
    pfFailsClosed(config),
    ensure({
      id: 'bastille-installed',
      title: 'Bastille installed',
      argv: ['/usr/local/bin/bastille', '-v'],
      plan: [{ argv: ['/usr/sbin/pkg', 'install', '-y', 'bastille'] }],
    }),
    bastilleZfs(config),
    controlplaneUser(config),
  ];
}

/**
 * The host user rc.d/clawdie runs the controlplane as (clawdie_runas). Without it daemon(8) -u
 * fails only in its forked child (usr.sbin/daemon/daemon.c restrict_process(): "unknown user"),
 * after `service clawdie start` reported success, and -r restarts it every 5 s. pw(8) useradd
 * makes a group of the same name unless -g is given (usr.sbin/pw/pw_user.c); `-w no` leaves the
 * account without a password (no login), `-s nologin` without a shell.
 */
function controlplaneUser(config: FreeBsdSetupConfig): SetupStep {
  const user = config.controlplaneUser;
  return ensure({
    id: 'controlplane-user',
    title: `host user ${user} for the controlplane (rc.d clawdie_runas)`,
    argv: ['/usr/sbin/pw', 'usershow', user],
    plan: [
      {
        argv: [
          ...['/usr/sbin/pw', 'useradd', user, '-c', 'Clawdie'],
          ...['-d', '/nonexistent', '-s', '/usr/sbin/nologin', '-w', 'no'],
        ],
      },
    ],
  });
}

/**
 * The main ruleset hooks the task anchors and then blocks the task group with `quick` (pf's last
 * matching rule wins otherwise: a later pass would open a task's path while its anchor is empty).
 */
function pfFailsClosed(config: FreeBsdSetupConfig): SetupStep {
  const argv = ['/sbin/pfctl', '-sr'];
  const anchor = `anchor "${config.pfAnchor}/*"`;
  return {
    id: 'pf-hostd-anchor',
    title: `main PF ruleset hooks the ${config.pfAnchor} anchors and blocks ${config.interfaceGroup} (quick)`,
    async check(context) {
      const result = await probe(context, argv);
      const problems = mainRulesProblems(result.stdout, config);
      return {
        done: result.exitCode === 0 && problems.length === 0,
        detail: `${argv.join(' ')} → exit ${result.exitCode}${problems.length > 0 ? `: ${problems.join('; ')}` : ''}`,
        plan: [],
        hint:
          `add to /etc/pf.conf, in this order: \`set skip on lo0\`, \`${anchor}\`, ` +
          `\`${failClosedRule(config.interfaceGroup)}\` (no \`pass … quick\` that can match ` +
          `${config.interfaceGroup} before them); then pfctl -f /etc/pf.conf`,
        severity: 'required',
      };
    },
  };
}

function bastilleZfs(config: FreeBsdSetupConfig): SetupStep {
  const read = (key: string) => ['/usr/sbin/sysrc', '-f', BASTILLE_CONF, '-n', key];
  return {
    id: 'bastille-zfs',
    title: `Bastille uses ZFS on ${config.zpool}`,
    async check(context) {
      const enabled = firstLine((await probe(context, read('bastille_zfs_enable'))).stdout);
      const zpool = firstLine((await probe(context, read('bastille_zfs_zpool'))).stdout);
      return {
        done: enabled === 'YES' && zpool === config.zpool,
        detail: `bastille_zfs_enable=${enabled || '?'} bastille_zfs_zpool=${zpool || '?'}`,
        plan: [
          {
            argv: [
              ...['/usr/sbin/sysrc', '-f', BASTILLE_CONF],
              ...['bastille_zfs_enable=YES', `bastille_zfs_zpool=${config.zpool}`],
            ],
          },
        ],
      };
    },
  };
}

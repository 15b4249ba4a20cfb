// Where each grammar fact was read (repository, path, commit). "pinned" commits were read at that
// exact commit; "indexed" facts were read from a stored copy of the file whose commit the source
// index did not name (the option letters quoted are identical across the FreeBSD 13–15 copies seen).

export interface Upstream {
  repo: string;
  paths: readonly string[];
  commit: string;
  note?: string;
}

const FREEBSD = 'freebsd/freebsd-src';

export const SOURCES = {
  getopt: {
    repo: FREEBSD,
    paths: ['lib/libc/stdlib/getopt.c'],
    commit: '0348c8fcfaa22d4f2bf548ad9c187c09ef90c533',
  },
  zfs: {
    repo: 'openzfs/zfs',
    paths: ['cmd/zfs/zfs_main.c', 'module/zcommon/zfs_prop.c', 'module/zcommon/zprop_common.c'],
    commit: 'e269af1b3c7b1b1c000d05f147a2f75e5e72e0ca',
    note: 'tag zfs-2.2.7, the OpenZFS of FreeBSD 14.3',
  },
  jail: {
    repo: FREEBSD,
    paths: ['usr.sbin/jail/jail.c', 'usr.sbin/jail/state.c'],
    commit: '0906e40a5142c71f7bb40bd878a2e48e0158d52f',
    note:
      'jail.c here has "cdf:hiJ:lmn:p:qrRs:u:U:v" and the four command-line styles; a newer ' +
      'indexed copy adds e: (kept: a superset); state.c (20a9e23) lets -r name a running jail ' +
      'absent from the config file',
  },
  jailConfig: {
    repo: FREEBSD,
    paths: ['usr.sbin/jail/config.c'],
    commit: '086e0149ae56641af245ce472e787c2f67d3aea5',
    note: 'intparams[] names and PF_BOOL / PF_INT checks',
  },
  jailKernelParams: {
    repo: FREEBSD,
    paths: ['sys/kern/kern_jail.c'],
    commit: 'indexed',
    note: 'SYSCTL_JAIL_PARAM block',
  },
  jls: {
    repo: FREEBSD,
    paths: ['usr.sbin/jls/jls.c'],
    commit: '01021fdd438c6b819f77b5435440130d6a2f9785',
  },
  libxo: { repo: 'Juniper/libxo', paths: ['libxo/libxo.c'], commit: 'indexed' },
  pfctl: {
    repo: FREEBSD,
    paths: ['sbin/pfctl/pfctl.c'],
    commit: '004062345bbfaa191252ac2df15ca151dcfdfc4f',
  },
  rctl: {
    repo: FREEBSD,
    paths: ['usr.bin/rctl/rctl.c'],
    commit: 'ba0fe1ddeff51707bf69dac987ec42fd1332a4fd',
  },
  rctlKernel: {
    repo: FREEBSD,
    paths: ['sys/kern/kern_rctl.c', 'sys/kern/kern_racct.c'],
    commit: '002c06d21092890648c0a6405aef6c515a1e4ce6',
    note: 'kern_rctl.c at this commit (names, rctl_rule_add checks); kern_racct.c flags indexed',
  },
  ifconfig: {
    repo: FREEBSD,
    paths: ['sbin/ifconfig/ifconfig.c', 'sbin/ifconfig/ifgroup.c', 'sbin/ifconfig/ifclone.c'],
    commit: '039ea811636f62633b18bcadb9f5332b215f7900',
    note: 'ifgroup.c at this commit; ifconfig.c basic_cmds indexed',
  },
  mount: {
    repo: FREEBSD,
    paths: ['sbin/mount/mount.c', 'sbin/umount/umount.c'],
    commit: 'indexed',
  },
  sysctl: { repo: FREEBSD, paths: ['sbin/sysctl/sysctl.c'], commit: 'indexed' },
  route: {
    repo: FREEBSD,
    paths: ['sbin/route/route.c'],
    commit: 'indexed',
    note: 'main() getopt, keywords, print_getmsg() "  interface: %.*s"',
  },
  devfs: {
    repo: FREEBSD,
    paths: ['sbin/devfs/devfs.c', 'sbin/devfs/rule.c'],
    commit: 'indexed',
    note: 'devfs -m, rule -s N show; an unknown ruleset is an ioctl error, exit 1',
  },
  kld: {
    repo: FREEBSD,
    paths: ['sbin/kldstat/kldstat.c', 'sbin/kldload/kldload.c'],
    commit: 'indexed',
    note: 'kldstat "dhi:m:n:qv", -q -m: exit 1 silently when modfind() fails; kldload "nqv"',
  },
  daemon: { repo: FREEBSD, paths: ['usr.sbin/daemon/daemon.c'], commit: 'indexed' },
  jexec: { repo: FREEBSD, paths: ['usr.sbin/jexec/jexec.c'], commit: 'indexed' },
  sysrc: {
    repo: FREEBSD,
    paths: ['usr.sbin/sysrc/sysrc'],
    commit: '4518a723b5579345a59e2f140b9c7155e3810308',
  },
  coreutils: {
    repo: FREEBSD,
    paths: ['bin/mkdir/mkdir.c', 'usr.bin/uname/uname.c'],
    commit: 'indexed',
  },
  pw: { repo: FREEBSD, paths: ['usr.sbin/pw/pw.c', 'usr.sbin/pw/pw_user.c'], commit: 'indexed' },
  pkg: {
    repo: 'freebsd/pkg',
    paths: ['src/main.c', 'src/install.c', 'src/info.c'],
    commit: '13f9f986736ca80563f006a55ae075553feb57a1',
  },
  pkgBootstrap: {
    repo: FREEBSD,
    paths: ['usr.sbin/pkg/pkg.c'],
    commit: 'indexed',
    note: 'main(): "+:dN46", then "+:y" for any subcommand; non_interactive_message without -y',
  },
  xvfb: {
    repo: 'freedesktop/xorg-xserver',
    paths: ['os/utils.c', 'hw/vfb/InitOutput.c'],
    commit: '376eaadde36f80fcbe6b0391a3385e77b4602854',
    note: 'ProcessCommandLine, VerifyDisplayName; vfb ddxProcessArgument (-screen)',
  },
  bastille: {
    repo: 'BastilleBSD/bastille',
    paths: [
      'usr/local/bin/bastille',
      'usr/local/share/bastille/{bootstrap,create,start,stop,pkg,cmd}.sh',
    ],
    commit: '040f8061f6c60dcb3348d05c672150a426f964ed',
    note: 'Bastille 1.4.4',
  },
} as const satisfies Record<string, Upstream>;

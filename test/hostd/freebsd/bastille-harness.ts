// Runs Bastille's own scripts (never stored in this repository) under /bin/sh with stubbed FreeBSD
// programs. The scripts come from a fetched snapshot outside the repository: CLAWDIE_BASTILLE_GIT
// (a git directory of BastilleBSD/bastille) or the workplace mirror path below. The copy lives in
// a temporary directory with its absolute paths pointed there, runs as an unprivileged user, and
// every FreeBSD program it calls is a stub that logs its argv and exits 0.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DEFAULT_GIT = '/work/.mirror/BastilleBSD+bastille/repo';
export const BASTILLE_GIT = process.env.CLAWDIE_BASTILLE_GIT ?? DEFAULT_GIT;

/** Programs Bastille calls that must never run for real here (or do not exist on Linux). */
const STUBS = [
  'bastille',
  'sysrc',
  'zfs',
  'zpool',
  'jls',
  'jail',
  'jexec',
  'ifconfig',
  'pfctl',
  'fetch',
  'pkg',
  'freebsd-version',
  'freebsd-update',
  'mount',
  'umount',
  'mount_nullfs',
  'devfs',
  'chflags',
  'sysctl',
  'service',
  'rctl',
  'cpuset',
  'route',
  'rm',
  'chmod',
  'chown',
  'tar',
  'stat',
  'id',
  'uname',
  'kldload',
  'kldstat',
  'setfib',
  'mdo',
  'ngctl',
  'tzsetup',
  'certctl',
  'pw',
];

/** What a few stubs print, so the scripts see a FreeBSD 14.3 amd64 host with one NIC. */
const OUTPUTS: Record<string, string> = {
  id: 'echo 0',
  stat: 'echo 40750',
  uname: 'case "$1" in -r) echo 14.3-RELEASE ;; -m|-p) echo amd64 ;; *) echo FreeBSD ;; esac',
  sysctl:
    'case "$*" in *machine_arch*) echo "hw.machine_arch: amd64" ;; *machine*) echo "hw.machine: amd64" ;; esac',
  ifconfig: '[ "$1" = "-l" ] && echo "vtnet0 lo0"',
  'freebsd-version': 'echo 14.3-RELEASE',
};

export interface BastilleRun {
  status: number | null;
  output: string;
  /** The `sh -x` trace of the subcommand script (stderr lines starting with '+'). */
  trace: string[];
  /** argv of every stubbed program, one line each. */
  calls: string[];
}

export interface BastilleSandbox {
  /** `templateRunning`: jls and `bastille list` report the jail "browser" as existing and running. */
  run(args: readonly string[], options?: { templateRunning?: boolean }): BastilleRun;
  commit: string;
  /** Removes the temporary copy. */
  dispose(): void;
}

export function bastilleAvailable(): boolean {
  return existsSync(BASTILLE_GIT);
}

export function createBastilleSandbox(): BastilleSandbox {
  const root = mkdtempSync(join(tmpdir(), 'clawdie-bastille-'));
  chmodSync(root, 0o755);
  const git = (...args: string[]) => execFileSync('git', ['--git-dir', BASTILLE_GIT, ...args]);
  const commit = git('rev-parse', 'HEAD').toString().trim();
  execFileSync('tar', ['-x', '-C', root], { input: git('archive', 'HEAD', 'usr/local') });
  const share = join(root, 'usr/local/share/bastille');
  const prefix = join(root, 'prefix');
  const stubs = join(root, 'stubs');
  const log = join(root, 'calls.log');
  const cwd = join(root, 'cwd');
  for (const dir of [
    cwd,
    stubs,
    join(prefix, 'releases/14.3-RELEASE/bin'),
    join(prefix, 'jails'),
    join(prefix, 'templates'),
  ]) {
    mkdirSync(dir, { recursive: true });
  }
  const entry = join(root, 'usr/local/bin/bastille');
  const scripts = readdirSync(share, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.sh'))
    .map((name) => join(share, name));
  for (const script of [entry, ...scripts]) {
    writeFileSync(
      script,
      readFileSync(script, 'utf8').replaceAll('/usr/local/share/bastille', share),
    );
  }
  const config = join(root, 'bastille.conf');
  const sample = readFileSync(join(root, 'usr/local/etc/bastille/bastille.conf.sample'), 'utf8');
  writeFileSync(
    config,
    `${sample.replaceAll('"/usr/local/bastille"', `"${prefix}"`).replaceAll('"/usr/local/share/bastille"', `"${share}"`)}\n` +
      'bastille_zfs_enable="NO"\n',
  );
  const running = join(root, 'template-running');
  const outputs: Record<string, string> = {
    ...OUTPUTS,
    jls: `[ -f "${running}" ] && [ "$1" = name ] && echo browser`,
    bastille: `[ -f "${running}" ] && [ "$1 $2" = "list jails" ] && echo browser`,
  };
  for (const name of STUBS) {
    const path = join(stubs, name);
    writeFileSync(
      path,
      `#!/bin/sh\necho "${name} $*" >> "${log}"\n${outputs[name] ?? ''}\nexit 0\n`,
    );
    chmodSync(path, 0o755);
  }
  writeFileSync(log, '');
  execFileSync('chown', ['-R', '65534:65534', root]);
  return {
    commit,
    dispose: () => rmSync(root, { recursive: true, force: true }),
    run(args, options = {}) {
      writeFileSync(log, '');
      const jail = join(prefix, 'jails/browser');
      if (options.templateRunning) {
        mkdirSync(join(jail, 'root'), { recursive: true });
        for (const file of ['settings.conf', 'fstab', 'jail.conf'])
          writeFileSync(join(jail, file), '');
        writeFileSync(running, '');
        execFileSync('chown', ['-R', '65534:65534', jail, running]);
      } else {
        rmSync(running, { force: true });
        rmSync(jail, { recursive: true, force: true });
      }
      const result = spawnSync(
        'setpriv',
        ['--reuid=65534', '--regid=65534', '--clear-groups', '/bin/sh', entry, ...args],
        {
          env: {
            PATH: `${stubs}:/usr/bin:/bin`,
            BASTILLE_CONFIG: config,
            SH: '/bin/sh -x',
            HOME: root,
            NO_COLOR: '1',
          },
          cwd,
          encoding: 'utf8',
          input: '',
          timeout: 30_000,
        },
      );
      const stderr = result.stderr ?? '';
      return {
        status: result.status,
        output: `${result.stdout ?? ''}${stderr
          .split('\n')
          .filter((l) => !l.startsWith('+'))
          .join('\n')}`,
        trace: stderr.split('\n').filter((l) => l.startsWith('+')),
        calls: readFileSync(log, 'utf8')
          .split('\n')
          .filter((l) => l !== ''),
      };
    },
  };
}

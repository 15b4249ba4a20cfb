// The setup CLI's only reader of the environment. Merge order: defaults < environment < flags.
// Plain validation (the setup package has no runtime dependencies).

export type HostOs = 'freebsd' | 'linux';

export interface FreeBsdSetupConfig {
  /** FreeBSD release Bastille bootstraps, e.g. `14.3-RELEASE`. */
  release: string;
  /** Name of the Bastille template jail. VNET names may not contain `-` or `_`. */
  templateName: string;
  /** Host interface the template's VNET bridge attaches to (only the template uses Bastille networking). */
  networkInterface: string;
  /** The template's address for `bastille create -V` (`SYNCDHCP` or `a.b.c.d/nn`). */
  templateIp: string;
  zpool: string;
  bastillePrefix: string;
  /** Template generation snapshot name suffix: `@hostd-<generation>`. */
  generation: string;
  packages: readonly string[];
  /** Host directory of the built jail-service (`dist/` and `package.json`). */
  jailServiceSource: string;
  serviceUser: string;
  serviceUid: number;
  tasksDataset: string;
  jailsRoot: string;
}

export interface LinuxSetupConfig {
  /** Copied into each clone (hostd's CLAWDIE_HOSTD_TEMPLATE_PROFILE); Chromium data in `chromium/`. */
  profileDir: string;
  chromiumPath: string;
}

export interface SetupConfig {
  os: HostOs;
  dryRun: boolean;
  freebsd: FreeBsdSetupConfig;
  linux: LinuxSetupConfig;
}

/** Flag values as node:util parseArgs returns them. */
export interface SetupFlags {
  'dry-run'?: boolean;
  os?: string;
  release?: string;
  interface?: string;
  'template-ip'?: string;
  generation?: string;
  'jail-service'?: string;
  'profile-dir'?: string;
}

export class SetupConfigError extends Error {
  readonly code = 'SETUP_CONFIG_INVALID';
}

/** Builds the frozen configuration. `platform` is `process.platform`; `repoRoot` the checkout. */
export function loadSetupConfig(
  env: Readonly<Record<string, string | undefined>>,
  flags: SetupFlags,
  platform: string,
  repoRoot: string,
): Readonly<SetupConfig> {
  const pick = (flag: string | undefined, variable: string, fallback: string) =>
    flag ?? (env[variable] || undefined) ?? fallback;
  const os = pick(flags.os, 'CLAWDIE_SETUP_OS', platform === 'freebsd' ? 'freebsd' : 'linux');
  if (os !== 'freebsd' && os !== 'linux') {
    throw new SetupConfigError(
      `CLAWDIE_SETUP_OS must be freebsd or linux, got "${os}": set CLAWDIE_SETUP_OS or pass --os`,
    );
  }
  const generation = pick(flags.generation, 'CLAWDIE_SETUP_GENERATION', 'g0001');
  if (!/^g\d{4}$/.test(generation)) {
    throw new SetupConfigError(
      `CLAWDIE_SETUP_GENERATION must look like g0001: set CLAWDIE_SETUP_GENERATION or pass --generation`,
    );
  }
  return Object.freeze({
    os,
    dryRun: flags['dry-run'] ?? false,
    freebsd: {
      release: pick(flags.release, 'CLAWDIE_SETUP_RELEASE', '14.3-RELEASE'),
      templateName: 'browser',
      networkInterface: pick(flags.interface, 'CLAWDIE_SETUP_INTERFACE', 'vtnet0'),
      templateIp: pick(flags['template-ip'], 'CLAWDIE_SETUP_TEMPLATE_IP', 'SYNCDHCP'),
      zpool: 'zroot',
      bastillePrefix: '/usr/local/bastille',
      generation,
      packages: ['chromium', 'node22', 'npm-node22', 'noto-basic'],
      jailServiceSource: pick(
        flags['jail-service'],
        'CLAWDIE_SETUP_JAIL_SERVICE',
        `${repoRoot}/jail-service`,
      ),
      serviceUser: 'clawdie',
      serviceUid: 9223,
      tasksDataset: 'zroot/hostd/tasks',
      jailsRoot: '/var/hostd/jails',
    },
    linux: {
      profileDir: pick(
        flags['profile-dir'],
        'CLAWDIE_SETUP_PROFILE_DIR',
        '/var/lib/clawdie/template-profile',
      ),
      chromiumPath: pick(undefined, 'CLAWDIE_CHROMIUM_PATH', '/usr/bin/chromium'),
    },
  });
}

/** The process environment; config.ts is the only module that reads it. */
export function processEnvironment(): Readonly<Record<string, string | undefined>> {
  return process.env;
}

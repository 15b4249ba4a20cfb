// The setup CLI's only reader of the environment. Merge order: defaults < environment < flags.
// Plain validation; the FreeBSD host layout is hostd's own (hostd-layout.ts).
import { hostdFreeBsdLayout, templateLocation } from './hostd-layout.js';
import type { HostOs, SetupFlags } from './setup-flags.js';

export type { HostOs } from './setup-flags.js';

export interface FreeBsdSetupConfig {
  /** FreeBSD release Bastille bootstraps, e.g. `14.3-RELEASE`. */
  release: string;
  /** Name of the Bastille template jail (from hostd's template snapshot). VNET names may not contain `-` or `_`. */
  templateName: string;
  /**
   * Host interface the template's VNET bridge attaches to (only the template uses Bastille
   * networking); null: the default route's (steps/template-network.ts).
   */
  networkInterface: string | null;
  /** The template's address for `bastille create -V` (`SYNCDHCP` or `a.b.c.d/nn`); null: from rc.conf. */
  templateIp: string | null;
  /** The host user the controlplane runs as (rc.d/clawdie's clawdie_runas default). */
  controlplaneUser: string;
  /** Bastille's pool (`bastille_zfs_zpool`): the first segment of hostd's template snapshot. */
  zpool: string;
  bastillePrefix: string;
  /** Template generation snapshot name suffix: `@hostd-<generation>`. */
  generation: string;
  /** The snapshot every clone is made from: hostd's CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT, or the generation's. */
  templateSnapshot: string;
  packages: readonly string[];
  /** Host directory of the built jail-service (`dist/` and `package.json`). */
  jailServiceSource: string;
  serviceUser: string;
  serviceUid: number;
  /** Where the jail-service is installed inside the template (hostd's entry without `dist/main.js`). */
  serviceDir: string;
  /** hostd's CLAWDIE_HOSTD_ZFS_TASKS_DATASET, mounted at `jailsRoot` (CLAWDIE_HOSTD_JAILS_ROOT). */
  tasksDataset: string;
  jailsRoot: string;
  /** hostd's CLAWDIE_HOSTD_PF_ANCHOR: the main ruleset must hold `anchor "<pfAnchor>/*"`. */
  pfAnchor: string;
  /** hostd's CLAWDIE_HOSTD_INTERFACE_GROUP: the main ruleset blocks it. */
  interfaceGroup: string;
  /** hostd's per-task run and log directories. */
  runDir: string;
  logDir: string;
  /** The repository's newsyslog.conf.d entry for the daemons' logs. */
  newsyslogSource: string;
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
  const layout = hostdLayout(env);
  const template = templateLocation(layout.templateSnapshot);
  if (template === null) {
    throw new SetupConfigError(
      `CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT must name the root of a Bastille template, <pool>/bastille/jails/<name>/root@hostd-gNNNN (got ${layout.templateSnapshot})`,
    );
  }
  const generation = pick(flags.generation, 'CLAWDIE_SETUP_GENERATION', template.generation);
  if (!/^g\d{4}$/.test(generation)) {
    throw new SetupConfigError(
      `CLAWDIE_SETUP_GENERATION must look like g0001: set CLAWDIE_SETUP_GENERATION or pass --generation`,
    );
  }
  if (env.CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT && generation !== template.generation) {
    throw new SetupConfigError(
      `--generation ${generation} disagrees with CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT=${layout.templateSnapshot}: hostd would clone another snapshot`,
    );
  }
  return Object.freeze({
    os,
    dryRun: flags['dry-run'] ?? false,
    freebsd: {
      release: pick(flags.release, 'CLAWDIE_SETUP_RELEASE', '14.3-RELEASE'),
      templateName: template.templateName,
      networkInterface: flags.interface ?? (env.CLAWDIE_SETUP_INTERFACE || null),
      templateIp: flags['template-ip'] ?? (env.CLAWDIE_SETUP_TEMPLATE_IP || null),
      controlplaneUser: 'clawdie',
      zpool: template.zpool,
      bastillePrefix: '/usr/local/bastille',
      generation,
      templateSnapshot: `${template.rootDataset}@hostd-${generation}`,
      // Desktop tasks: Xvfb (x11-servers/xorg-vfbserver), xdotool and xwd run inside the jail.
      packages: [
        'chromium',
        'node22',
        'npm-node22',
        'noto-basic',
        'xorg-vfbserver',
        'xdotool',
        'xwd',
      ],
      jailServiceSource: pick(
        flags['jail-service'],
        'CLAWDIE_SETUP_JAIL_SERVICE',
        `${repoRoot}/jail-service`,
      ),
      serviceUser: layout.serviceUser,
      serviceUid: layout.serviceUid,
      serviceDir: layout.serviceEntry.replace(/\/dist\/main\.js$/, ''),
      tasksDataset: layout.tasksDataset,
      jailsRoot: layout.jailsRoot,
      pfAnchor: layout.pfAnchor,
      interfaceGroup: layout.interfaceGroup,
      runDir: layout.runDir,
      logDir: layout.logDir,
      newsyslogSource: `${repoRoot}/setup/freebsd/newsyslog.conf.d/clawdie.conf`,
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

/** hostd's FreeBSD layout; its config errors become setup's (exit 2). */
function hostdLayout(env: Readonly<Record<string, string | undefined>>) {
  try {
    return hostdFreeBsdLayout(env);
  } catch (error) {
    throw new SetupConfigError((error as Error).message);
  }
}

/** The process environment; config.ts is the only module that reads it. */
export function processEnvironment(): Readonly<Record<string, string | undefined>> {
  return process.env;
}

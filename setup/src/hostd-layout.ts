// The FreeBSD host layout setup prepares is hostd's own: parsed by hostd's config loader from the
// same CLAWDIE_HOSTD_* variables (tasks dataset, jails root, template snapshot, PF anchor,
// interface group, quota) and completed with the driver's defaults, so `clawdie setup`, the
// driver and `--verify-host` can never disagree on a name.
import { type FreeBsdLayout, freeBsdLayout, loadConfig } from '@clawdie/hostd/host-kit';

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Setup serves no API, so hostd's token is not needed: a placeholder satisfies its loader when
 * neither CLAWDIE_HOSTD_TOKEN nor CLAWDIE_HOSTD_TOKEN_FILE is set.
 */
export function hostdEnvironment(env: Environment): Environment {
  if (env.CLAWDIE_HOSTD_TOKEN || env.CLAWDIE_HOSTD_TOKEN_FILE) return env;
  return { ...env, CLAWDIE_HOSTD_TOKEN: 'clawdie-setup-serves-no-api' };
}

/** The layout the FreeBSD driver uses with `env`. Throws hostd's CONFIG_INVALID error. */
export function hostdFreeBsdLayout(env: Environment): FreeBsdLayout {
  return freeBsdLayout(loadConfig(hostdEnvironment(env), undefined, 'freebsd'));
}

export interface TemplateLocation {
  zpool: string;
  templateName: string;
  /** `<pool>/bastille/jails/<name>/root`: where Bastille puts a thick jail's root. */
  rootDataset: string;
  generation: string;
}

/** Bastille's thick-jail root below `bastille_zfs_zpool`, snapshotted as `@hostd-gNNNN`. */
const TEMPLATE_SNAPSHOT =
  /^([A-Za-z0-9][\w.:-]*)\/bastille\/jails\/([A-Za-z0-9]+)\/root@hostd-(g\d{4})$/;

/** Where setup must build the template for hostd's snapshot, or null when Bastille cannot. */
export function templateLocation(snapshot: string): TemplateLocation | null {
  const match = TEMPLATE_SNAPSHOT.exec(snapshot);
  if (!match) return null;
  const [, zpool = '', templateName = '', generation = ''] = match;
  return {
    zpool,
    templateName,
    rootDataset: `${zpool}/bastille/jails/${templateName}/root`,
    generation,
  };
}

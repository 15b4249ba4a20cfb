// The FreeBSD driver's part of hostd's configuration (config.ts parses it with the rest, in one
// schema): the host layout `clawdie setup` prepared (freebsd-jails.md §2).
import { z } from 'zod';

/** `name` made of ZFS's dataset-name characters, below a pool (`pool/a/b`). */
const datasetName = /^[A-Za-z0-9][\w.:-]*(\/[\w.:-]+)+$/;

/**
 * The FreeBSD driver's host layout (freebsd-jails.md §2): what `clawdie setup` prepared. Read on
 * every host but used only by the FreeBSD driver.
 */
export const freeBsdSchema = {
  /** Parent dataset of every task clone (hostd's own; mounted at CLAWDIE_HOSTD_JAILS_ROOT). */
  CLAWDIE_HOSTD_ZFS_TASKS_DATASET: z
    .string()
    .regex(datasetName, 'must be a ZFS dataset below a pool, e.g. zroot/hostd/tasks')
    .default('zroot/hostd/tasks'),
  CLAWDIE_HOSTD_JAILS_ROOT: z
    .string()
    .regex(
      /^(\/[\w.-]+)+$/,
      'must be an absolute path without a trailing slash, e.g. /var/hostd/jails',
    )
    .default('/var/hostd/jails'),
  /** The Bastille-built template's snapshot every clone is made from. */
  CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT: z
    .string()
    .regex(
      /^[A-Za-z0-9][\w.:-]*(\/[\w.:-]+)*@[\w.:-]+$/,
      'must be a ZFS snapshot dataset@name, e.g. zroot/bastille/jails/browser/root@hostd-g0001',
    )
    .default('zroot/bastille/jails/browser/root@hostd-g0001'),
  /** The main ruleset holds `anchor "<name>/*"`; each task loads `<name>/browsertaskNNN`. */
  CLAWDIE_HOSTD_PF_ANCHOR: z
    .string()
    .regex(
      /^[A-Za-z][\w-]{0,31}$/,
      'must be a PF anchor name such as hostd (no slash, no leading _)',
    )
    .default('hostd'),
  /** Interface group of the task epairs' host ends (ifconfig: no trailing digit, < 16 chars). */
  CLAWDIE_HOSTD_INTERFACE_GROUP: z
    .string()
    .regex(/^[A-Za-z][\w]{0,14}$/, 'must be an interface group name of 1–15 characters')
    .refine((name) => !/\d$/.test(name), 'an interface group name may not end in a digit')
    .default('hostdtask'),
  /** ZFS quota of each clone (what the task writes). */
  CLAWDIE_HOSTD_QUOTA: z
    .string()
    .regex(/^[1-9]\d*[KMGT]?$/, 'must be a ZFS size such as 2G or 512M')
    .default('2G'),
};

export interface FreeBsdHostConfig {
  tasksDataset: string;
  jailsRoot: string;
  templateSnapshot: string;
  pfAnchor: string;
  interfaceGroup: string;
  quota: string;
}

/** The layout from the parsed variables. */
export function freeBsdHostConfig(
  e: {
    [K in keyof typeof freeBsdSchema]: z.infer<(typeof freeBsdSchema)[K]>;
  },
): Readonly<FreeBsdHostConfig> {
  return Object.freeze({
    tasksDataset: e.CLAWDIE_HOSTD_ZFS_TASKS_DATASET,
    jailsRoot: e.CLAWDIE_HOSTD_JAILS_ROOT,
    templateSnapshot: e.CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT,
    pfAnchor: e.CLAWDIE_HOSTD_PF_ANCHOR,
    interfaceGroup: e.CLAWDIE_HOSTD_INTERFACE_GROUP,
    quota: e.CLAWDIE_HOSTD_QUOTA,
  });
}

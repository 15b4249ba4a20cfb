// The flags of `clawdie setup`, declared once: the parser, the usage and the config read them here.

/** The host operating systems setup prepares. */
export type HostOs = 'freebsd' | 'linux';

export interface SetupFlagSpec {
  readonly type: 'string' | 'boolean';
  /** The value's name in the usage, as in `--release R`. */
  readonly value?: string;
  /** Only this OS's steps read it; given for the other OS, it is refused. */
  readonly os?: HostOs;
  readonly description: string;
}

export const setupFlags = {
  'dry-run': { type: 'boolean', description: 'print the commands instead of running them' },
  os: { type: 'string', value: 'freebsd|linux', description: "target OS (default: this host's)" },
  release: {
    type: 'string',
    value: 'R',
    os: 'freebsd',
    description: 'FreeBSD release for Bastille (default 14.3-RELEASE)',
  },
  interface: {
    type: 'string',
    value: 'IF',
    os: 'freebsd',
    description: "host interface for the template's VNET (default: the default route's)",
  },
  'template-ip': {
    type: 'string',
    value: 'IP',
    os: 'freebsd',
    description:
      'template address for bastille create -V (default: SYNCDHCP when the interface uses DHCP)',
  },
  generation: {
    type: 'string',
    value: 'gNNNN',
    os: 'freebsd',
    description: "template snapshot generation (default: CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT's)",
  },
  'jail-service': {
    type: 'string',
    value: 'DIR',
    os: 'freebsd',
    description: 'built jail-service directory to install into the template',
  },
  'profile-dir': {
    type: 'string',
    value: 'DIR',
    os: 'linux',
    description: 'Linux template profile directory',
  },
} as const satisfies Record<string, SetupFlagSpec>;

/** `--verify-host`: a mode of its own, which takes none of the flags above. */
export const verifyHostFlag = {
  type: 'boolean',
  description:
    "acceptance check of this host, run as root with hostd stopped and hostd's CLAWDIE_HOSTD_* " +
    "settings: through hostd's driver, make one clone, reach its jail-service, prove egress " +
    'outside the allowlist is refused, destroy it, prove nothing is left; print a report to paste ' +
    'back (exit 0 only if every check passed). Takes no other option.',
} as const satisfies SetupFlagSpec;

type FlagValue<F extends SetupFlagSpec> = F['type'] extends 'boolean' ? boolean : string;

/** Flag values as node:util parseArgs returns them. */
export type SetupFlags = {
  -readonly [K in keyof typeof setupFlags]?: FlagValue<(typeof setupFlags)[K]>;
};

// The facts about this host that go at the top of the verify-host report.
import { arch, release, type, version } from 'node:os';

export interface HostFacts {
  /** e.g. `FreeBSD 14.3-RELEASE (FreeBSD 14.3-RELEASE GENERIC) amd64` */
  os: string;
  node: string;
  /** The user the check runs as (root is expected). */
  uid: number | null;
}

export function readHostFacts(): HostFacts {
  return {
    os: `${type()} ${release()} (${version()}) ${arch()}`,
    node: process.version,
    uid: process.getuid?.() ?? null,
  };
}

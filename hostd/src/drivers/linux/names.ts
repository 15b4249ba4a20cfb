// Every Linux resource of a clone, derived from its namespace and index alone (freebsd-jails.md
// §2.1, §3.2), so teardown and reconcile work from the OS without any journal — and never reach
// another namespace's clones (clone-namespace.ts).
import { join } from 'node:path';
import { type CloneNamespace, slotAddressOffset, slotBase } from '../clone-namespace.js';
import { cloneName } from '../jail-driver.js';

export interface LinuxCloneNames {
  index: number;
  name: string;
  /** Network namespace `bt<infix>NNN`; veth ends `bt<infix>NNNh` (host) and `…j` (clone). */
  netns: string;
  hostVeth: string;
  cloneVeth: string;
  /** A /30 at 10.78.0.0 + 4096·slot + 4·NNN: host end .+1, clone end .+2. */
  hostAddress: string;
  cloneAddress: string;
  /** The clone's own uid and gid (uidBase + 1000·slot + NNN): checkable without cgroups. */
  uid: number;
  /**
   * X display `:(200 + 1000·slot + NNN)`, far above the low numbers other X servers pick with
   * `-displayfd`: a root X server probing a display number unlinks its socket even when another
   * user's server holds it, which left a clone's display without a socket (seen in the leak tests).
   */
  display: number;
  /** The jail-service's port on host loopback when there is no network namespace. */
  loopbackPort: number;
  stateDir: string;
  profileDir: string;
}

export interface NamingOptions {
  stateRoot: string;
  uidBase: number;
  namespace: CloneNamespace;
}

export function linuxNames(index: number, options: NamingOptions): LinuxCloneNames {
  const { namespace } = options;
  const name = cloneName(index, namespace);
  const short = `bt${namespace.infix}${String(index).padStart(3, '0')}`;
  const stateDir = join(options.stateRoot, name);
  const addressBase = slotAddressOffset(namespace) + 4 * index;
  return {
    index,
    name,
    netns: short,
    hostVeth: `${short}h`,
    cloneVeth: `${short}j`,
    hostAddress: address(addressBase + 1),
    cloneAddress: address(addressBase + 2),
    uid: cloneUidBase(options) + index,
    display: slotBase(200, namespace) + index,
    loopbackPort: slotBase(30_000, namespace) + index,
    stateDir,
    profileDir: join(stateDir, 'profile'),
  };
}

/** Clone N of the namespace runs as this + N (uids of other namespaces lie outside +1…+999). */
export function cloneUidBase(options: { uidBase: number; namespace: CloneNamespace }): number {
  return slotBase(options.uidBase, options.namespace);
}

/** 10.78.0.0 plus an offset below 65 536. */
function address(offset: number): string {
  return `10.78.${Math.floor(offset / 256)}.${offset % 256}`;
}

/**
 * `bt007`, `bt007h`, `bt007j` → 7 in the default namespace (`bttest007h` in `test`); anything
 * else — another namespace's interfaces among them — → null.
 */
export function indexFromShortName(name: string, namespace: CloneNamespace): number | null {
  const prefix = `bt${namespace.infix}`;
  if (!name.startsWith(prefix)) return null;
  const match = /^(\d{3})[hj]?$/.exec(name.slice(prefix.length));
  return match?.[1] ? Number(match[1]) : null;
}

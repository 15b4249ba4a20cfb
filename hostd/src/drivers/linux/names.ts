// Every Linux resource of a clone, derived from its index alone (freebsd-jails.md §2.1, §3.2), so
// teardown and reconcile work from the OS without any journal.
import { join } from 'node:path';
import { cloneName } from '../jail-driver.js';

export interface LinuxCloneNames {
  index: number;
  name: string;
  /** Network namespace `btNNN`; veth ends `btNNNh` (host) and `btNNNj` (clone). */
  netns: string;
  hostVeth: string;
  cloneVeth: string;
  /** A /30 at 10.78.0.0 + 4·NNN: host end .+1, clone end .+2. */
  hostAddress: string;
  cloneAddress: string;
  /** The clone's own uid and gid: "no process of this uid" is checkable without cgroups. */
  uid: number;
  /**
   * X display `:(200 + NNN)`, far above the low numbers other X servers pick with `-displayfd`:
   * a root X server probing a display number unlinks its socket even when another user's server
   * holds it, which left a clone's display without a socket (seen in the leak tests).
   */
  display: number;
  stateDir: string;
  profileDir: string;
}

export interface NamingOptions {
  stateRoot: string;
  uidBase: number;
}

export function linuxNames(index: number, options: NamingOptions): LinuxCloneNames {
  const name = cloneName(index);
  const short = `bt${String(index).padStart(3, '0')}`;
  const stateDir = join(options.stateRoot, name);
  return {
    index,
    name,
    netns: short,
    hostVeth: `${short}h`,
    cloneVeth: `${short}j`,
    hostAddress: address(4 * index + 1),
    cloneAddress: address(4 * index + 2),
    uid: options.uidBase + index,
    display: 200 + index,
    stateDir,
    profileDir: join(stateDir, 'profile'),
  };
}

/** 10.78.0.0 plus an offset below 65 536. */
function address(offset: number): string {
  return `10.78.${Math.floor(offset / 256)}.${offset % 256}`;
}

/** `bt007`, `bt007h`, `bt007j` → 7; anything else → null. */
export function indexFromShortName(name: string): number | null {
  const match = /^bt(\d{3})[hj]?$/.exec(name);
  return match?.[1] ? Number(match[1]) : null;
}

// The host-wide owner lock of a clone namespace: one hostd per namespace per host, because a
// hostd's reconcile destroys every clone of its namespace it did not make in this run. The lock
// is a file `<dir>/<namespace>.lock` naming its holder, made atomically with link(2) of a complete
// file (fails when it exists) — no fcntl lock, which any close of the file in the process would
// drop. A dead holder's lock is taken over; a live one's is refused with its pid.
import {
  linkSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { sleep } from '@clawdie/kit/timing';
import type { CloneNamespace } from '../drivers/clone-namespace.js';
import { HostdError } from '../errors.js';
import { type OwnerRecord, ownerAlive, processStartTime, readOwnerRecord } from './owner-record.js';

/** Where every hostd on the host keeps its owner lock (/var/run is /run on Linux). */
export const OWNER_LOCK_DIR = '/var/run/clawdie-hostd-owners';

export interface ClaimOptions {
  namespace: CloneNamespace;
  /** Default OWNER_LOCK_DIR; only tests of the lock itself pass another. */
  dir?: string;
  /** Told when a dead holder's lock is taken over. Must not throw. */
  onTakeover?: (stale: OwnerRecord | null, path: string) => void;
}

export interface NamespaceOwner {
  readonly path: string;
  /**
   * Removes the lock if this process still holds it; idempotent. A process that exits without it
   * leaves a lock naming a dead pid, which the next claim takes over.
   */
  release(): void;
}

/**
 * Makes this process the owner of `namespace` on the host, or throws HostdError NAMESPACE_TAKEN
 * naming the live holder's pid: another hostd owns the namespace, or another namespace with the
 * same slot (the same uids and addresses). Never waits for a live holder.
 */
export async function claimNamespace(options: ClaimOptions): Promise<NamespaceOwner> {
  const dir = options.dir ?? OWNER_LOCK_DIR;
  const { namespace } = options;
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const path = join(dir, `${namespace.name}.lock`);
  const me: OwnerRecord = {
    pid: process.pid,
    startTime: processStartTime(process.pid) ?? '',
    namespace: namespace.name,
    slot: namespace.slot,
    since: new Date().toISOString(),
  };
  for (let attempt = 0; !tryCreate(path, me); attempt += 1) {
    const holder = readOwnerRecord(path);
    if (holder && ownerAlive(holder)) throw taken(namespace, holder, path);
    if (attempt >= 20) throw new Error(`could not take the owner lock ${path}`);
    if (takeOverIfStale(path, holder)) options.onTakeover?.(holder, path);
    else await sleep(50);
  }
  const release = () => {
    const holder = readOwnerRecord(path);
    if (holder?.pid === me.pid && holder.startTime === me.startTime) rmSync(path, { force: true });
  };
  const rival = slotRival(dir, me);
  if (rival) {
    release();
    throw taken(namespace, rival.record, rival.path);
  }
  return { path, release };
}

function taken(namespace: CloneNamespace, holder: OwnerRecord, path: string): HostdError {
  const how =
    'stop that hostd first (it destroys its clones when it stops), or give this one its own namespace with CLAWDIE_HOSTD_NAMESPACE (1–8 characters, a-z then a-z0-9). A lock whose process is dead is taken over by itself.';
  const message =
    holder.namespace === namespace.name
      ? `another hostd (pid ${holder.pid}, since ${holder.since || 'unknown'}) owns the clone namespace "${namespace.name}" on this host (${path}); starting would destroy its clones: ${how}`
      : `the clone namespace "${namespace.name}" shares slot ${namespace.slot} (uids, addresses, displays) with the namespace "${holder.namespace}" owned by hostd pid ${holder.pid} (${path}): pick another CLAWDIE_HOSTD_NAMESPACE, or ${how}`;
  return new HostdError('NAMESPACE_TAKEN', message, 409);
}

/** link(2) of a complete temp file onto `path`: atomic, and fails with EEXIST when it exists. */
function tryCreate(path: string, me: OwnerRecord): boolean {
  const temp = `${path}.${me.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(temp, `${JSON.stringify(me)}\n`, { mode: 0o644 });
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * Removes a dead holder's lock under a second lock (a `.takeover` directory), re-reading the holder
 * inside it, so two starting hostd never both take over and one never removes the lock the other
 * has just made. A takeover directory left by a crash expires after 10 s. True when removed.
 */
function takeOverIfStale(path: string, seen: OwnerRecord | null): boolean {
  const mutex = `${path}.takeover`;
  try {
    mkdirSync(mutex);
  } catch {
    try {
      if (Date.now() - statSync(mutex).mtimeMs > 10_000) rmSync(mutex, { recursive: true });
    } catch {}
    return false;
  }
  try {
    const holder = readOwnerRecord(path);
    const same =
      holder === null
        ? seen === null
        : holder.pid === seen?.pid && holder.startTime === seen.startTime;
    if (!same || (holder !== null && ownerAlive(holder))) return false;
    try {
      unlinkSync(path);
    } catch {
      return false;
    }
    return true;
  } finally {
    rmSync(mutex, { recursive: true, force: true });
  }
}

/** A live owner of another namespace with the same slot, if any. */
function slotRival(dir: string, me: OwnerRecord): { record: OwnerRecord; path: string } | null {
  for (const entry of readdirSync(dir)) {
    if (!entry.endsWith('.lock') || entry === `${me.namespace}.lock`) continue;
    const path = join(dir, entry);
    const record = readOwnerRecord(path);
    if (record && record.slot === me.slot && ownerAlive(record)) return { record, path };
  }
  return null;
}

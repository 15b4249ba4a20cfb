// The children a process has running, written to a directory it owns (the controlplane's data
// dir), so that the next process to start there can take down whatever a crashed one left behind
// (orphan-sweep.ts). One JSON file per owner process, rewritten on every change, removed when the
// owner has no child left.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProcessIdentity } from './process-identity.js';

/** One child as recorded: who it is, and how its owner would have stopped it. */
export interface RecordedChild extends ProcessIdentity {
  /** The program's file name, for log lines. */
  command: string;
  /** The signal its owner sends when it exits without stopping the child (SIGTERM: let it clean up). */
  signal: NodeJS.Signals;
  /** True: the child leads its own process group, and the whole group is signalled. */
  group: boolean;
}

/** One owner's file. */
export interface ChildRecord {
  owner: ProcessIdentity;
  children: RecordedChild[];
}

const PREFIX = 'children-';

/** The file of `owner` in `directory`: named by pid and start, so a reused pid gets another file. */
export function childRecordPath(directory: string, owner: ProcessIdentity): string {
  const start = createHash('sha256').update(owner.start).digest('hex').slice(0, 12);
  return join(directory, `${PREFIX}${owner.pid}-${start}.json`);
}

/**
 * Writes (atomically: a temporary file renamed over it) or, with no children, removes the
 * owner's file. Synchronous, for the exit hook; throws on I/O errors (the registry reports them).
 */
export function writeChildRecord(directory: string, record: ChildRecord): void {
  const path = childRecordPath(directory, record.owner);
  if (record.children.length === 0) {
    rmSync(path, { force: true });
    return;
  }
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

/** Every record file in `directory` (none when it does not exist), with its parsed content or null. */
export function readChildRecords(
  directory: string,
): { path: string; record: ChildRecord | null }[] {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.startsWith(PREFIX) && name.endsWith('.json'))
    .map((name) => {
      const path = join(directory, name);
      return { path, record: parseRecord(path) };
    });
}

function parseRecord(path: string): ChildRecord | null {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as ChildRecord;
    if (!isIdentity(value?.owner) || !Array.isArray(value.children)) return null;
    const children = value.children.filter(
      (child) =>
        isIdentity(child) &&
        typeof child.command === 'string' &&
        typeof child.signal === 'string' &&
        /^SIG[A-Z0-9]+$/.test(child.signal) &&
        typeof child.group === 'boolean',
    );
    return { owner: value.owner, children };
  } catch {
    return null;
  }
}

function isIdentity(value: unknown): value is ProcessIdentity {
  const identity = value as ProcessIdentity | undefined;
  return (
    typeof identity?.pid === 'number' &&
    Number.isInteger(identity.pid) &&
    identity.pid > 1 &&
    typeof identity.start === 'string' &&
    identity.start !== ''
  );
}

// Per-task logs kept on the host after the clone is gone: the FreeBSD jails' archived console logs
// and, on a failed start, the tail of the clone's own jail-service and Xvfb logs (the clone is
// destroyed next, and with it the only record of why). Bounded: the oldest are removed first once
// the directory holds more than `keep` task logs or more than `maxBytes` of them.
import type { CloneNamespace } from './clone-namespace.js';
import { parseCloneName } from './jail-driver.js';

export interface TaskLogRetention {
  /** The host directory (FreeBSD: also where jail(8) writes the live console logs). */
  dir: string;
  /** At most this many archived task logs … */
  keep: number;
  /** … of at most this many bytes together. */
  maxBytes: number;
}

/** What the retention needs of a file system (HostFiles on FreeBSD, node:fs on Linux). */
export interface TaskLogFiles {
  list(dir: string): Promise<string[]>;
  /** Size in bytes, or null when the file does not exist. */
  size(path: string): Promise<number | null>;
  remove(path: string): Promise<void>;
  write(path: string, content: string, options: { mode: number }): Promise<void>;
}

export const DEFAULT_TASK_LOGS = Object.freeze({ keep: 500, maxBytes: 256 * 1024 * 1024 });

/** At most this much of each of a failed clone's logs is kept (its end: where the error is). */
export const START_FAILURE_TAIL_BYTES = 64 * 1024;

/** `2026-11-27T033000.123Z`: sorts as it happened, and no `:` in a file name. */
export function logStamp(now: number): string {
  return new Date(now).toISOString().replaceAll(':', '');
}

const ARCHIVE = /^([^.]+)\.(?:console\.log\.|start-failure\.)(\d{4}-\d\d-\d\dT\d{6}\.\d{3}Z)/;

/** `browsertask007.start-failure.<stamp>.log` in the retention's directory. */
export function startFailureLogPath(retention: TaskLogRetention, name: string, now: number) {
  return `${retention.dir}/${name}.start-failure.${logStamp(now)}.log`;
}

/** The last `maxBytes` of `text` (whole lines where it can), marked when cut. */
export function tail(text: string, maxBytes = START_FAILURE_TAIL_BYTES): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  const cut = bytes.subarray(bytes.length - maxBytes).toString('utf8');
  const newline = cut.indexOf('\n');
  const rest = newline >= 0 && newline < cut.length - 1 ? cut.slice(newline + 1) : cut;
  return `[… ${bytes.length - Buffer.byteLength(rest)} earlier bytes cut]\n${rest}`;
}

/**
 * Writes the failed start's logs (`sections`: a title and the log's text each, tails only) and
 * prunes. Returns the path written, or null when even that failed (it never throws: the start's
 * own error is what the caller reports).
 */
export async function keepStartFailure(
  files: TaskLogFiles,
  retention: TaskLogRetention,
  namespace: CloneNamespace,
  name: string,
  now: number,
  sections: readonly { title: string; text: string | null }[],
): Promise<string | null> {
  const path = startFailureLogPath(retention, name, now);
  const body = sections
    .map(({ title, text }) => `==> ${title} <==\n${text === null ? '(none)\n' : tail(text)}`)
    .join('\n');
  try {
    await files.write(path, body.endsWith('\n') ? body : `${body}\n`, { mode: 0o640 });
    await pruneTaskLogs(files, retention, namespace);
    return path;
  } catch {
    return null;
  }
}

/**
 * Removes the oldest archived task logs of `namespace` until at most `keep` remain and they hold
 * at most `maxBytes`. Live console logs (no stamp) and other files are never touched. Returns the
 * removed paths, oldest first.
 */
export async function pruneTaskLogs(
  files: TaskLogFiles,
  retention: TaskLogRetention,
  namespace: CloneNamespace,
): Promise<string[]> {
  const archived: { path: string; stamp: string; size: number }[] = [];
  for (const entry of await files.list(retention.dir)) {
    const match = ARCHIVE.exec(entry);
    if (!match?.[1] || !match[2] || parseCloneName(match[1], namespace) === null) continue;
    const path = `${retention.dir}/${entry}`;
    const size = await files.size(path);
    if (size !== null) archived.push({ path, stamp: match[2], size });
  }
  archived.sort((a, b) => (a.stamp < b.stamp ? -1 : a.stamp > b.stamp ? 1 : 0));
  let total = archived.reduce((sum, file) => sum + file.size, 0);
  const removed: string[] = [];
  for (const file of archived) {
    if (archived.length - removed.length <= retention.keep && total <= retention.maxBytes) break;
    await files.remove(file.path);
    removed.push(file.path);
    total -= file.size;
  }
  return removed;
}

// The downloads of the task the browser serves: a fresh directory per policy, every attempt listed
// (completed or refused with why), oversize ones cancelled while they arrive, each finished file
// hashed and its type sniffed from its bytes; refused and partial files are deleted at once, and
// a download is listed as refused only once its file is gone.
import { randomUUID } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DownloadEntry, DownloadPolicy, DownloadRefusal } from '@clawdie/kit/jail-api';
import type { Logger } from 'pino';
import { digestFile } from './digest-file.js';
import { downloadName, sourceUrl } from './download-names.js';
import type { DownloadBegun, DownloadBrowser, DownloadProgress } from './download-port.js';
import { MIME_OF, sniffKind } from './sniff-type.js';

/**
 * How often the files of downloads in progress are measured: Chromium reports the progress of a
 * download without a length only about once a second, too late to stop a fast one.
 */
const MEASURE_EVERY_MS = 100;

/** Until a policy is set, and after a clear: every download is denied. */
const OFF: DownloadPolicy = { download: 'off', max_file_bytes: 1, max_task_bytes: 1, types: [] };

export interface DownloadStore {
  /** A fresh per-task directory (the previous one deleted) and what may be downloaded into it. */
  configure(policy: DownloadPolicy): Promise<void>;
  list(): DownloadEntry[];
  /** A completed download and its file, else null. */
  file(id: string): { entry: DownloadEntry; path: string } | null;
  /** Cancels what is in progress, deletes the directory, denies downloads again. */
  clear(): Promise<void>;
}

export function createDownloadStore(options: {
  browser: DownloadBrowser;
  /** Where per-task directories are made (inside the clone). */
  root: string;
  logger: Logger;
  now?: () => number;
}): DownloadStore {
  const { browser } = options;
  const logger = options.logger.child({ module: 'downloads' });
  const now = options.now ?? Date.now;
  let policy = OFF;
  let dir: string | null = null;
  const entries = new Map<string, DownloadEntry>();
  const finishing = new Set<Promise<void>>();
  // Downloads being refused: listed as in progress until their file is gone, so a listed refusal
  // never has a file behind it.
  const refusing = new Set<string>();
  const live = (entry: DownloadEntry) => entry.state === 'in_progress' && !refusing.has(entry.id);
  const track = (work: Promise<void>) => {
    finishing.add(work);
    void work.finally(() => finishing.delete(work));
  };

  const held = () =>
    [...entries.values()]
      .filter((entry) => entry.state === 'completed' || live(entry))
      .reduce((sum, entry) => sum + entry.bytes, 0);
  const removePartial = async (guid: string, from: string | null) => {
    if (!from) return;
    await rm(join(from, guid), { force: true });
    await rm(join(from, `${guid}.crdownload`), { force: true });
  };
  const refuse = (entry: DownloadEntry, refusal: DownloadRefusal, cancel: boolean) => {
    if (!live(entry)) return;
    refusing.add(entry.id);
    logger.info({ id: entry.id, refusal, bytes: entry.bytes }, 'download refused');
    const from = dir;
    const stop = cancel ? browser.cancel(entry.id) : Promise.resolve();
    track(
      stop
        .catch((error: unknown) => logger.warn({ err: error }, 'cancelling a download failed'))
        .then(() => removePartial(entry.id, from))
        .catch((error: unknown) =>
          logger.warn({ err: error }, 'deleting a refused download failed'),
        )
        .finally(() => {
          refusing.delete(entry.id);
          entry.state = 'refused';
          entry.refusal = refusal;
        }),
    );
  };

  const begin = (event: DownloadBegun) => {
    const taken = new Set([...entries.values()].map((entry) => entry.name));
    const entry: DownloadEntry = {
      id: event.guid,
      name: downloadName(event.suggestedFilename, taken),
      url: sourceUrl(event.url),
      state: 'in_progress',
      bytes: 0,
      kind: null,
      mime: null,
      sha256: null,
      refusal: null,
      started_at: now(),
    };
    entries.set(entry.id, entry);
    logger.info({ id: entry.id, name: entry.name }, 'download begun');
    if (policy.download === 'off' || dir === null) refuse(entry, 'downloads_off', false);
  };

  /** Refuses a download in progress that passed a limit; true when it did. */
  const overLimit = (entry: DownloadEntry, bytes: number) => {
    if (bytes > policy.max_file_bytes) refuse(entry, 'file_too_large', true);
    else if (held() > policy.max_task_bytes) refuse(entry, 'task_limit', true);
    return entry.state === 'refused';
  };

  const progress = (event: DownloadProgress) => {
    const entry = entries.get(event.guid);
    if (!entry || !live(entry)) return;
    if (event.state === 'canceled') return refuse(entry, 'canceled', false);
    entry.bytes = event.receivedBytes;
    if (overLimit(entry, Math.max(event.totalBytes, event.receivedBytes))) return;
    if (event.state === 'completed') track(finish(entry, dir ?? ''));
    else measuring ??= setInterval(measure, MEASURE_EVERY_MS).unref();
  };

  let measuring: NodeJS.Timeout | undefined;
  const measure = () => {
    const running = [...entries.values()].filter(live);
    if (running.length === 0 || !dir) {
      clearInterval(measuring);
      measuring = undefined;
      return;
    }
    const from = dir;
    for (const entry of running) {
      const sizes = [entry.id, `${entry.id}.crdownload`].map((name) =>
        stat(join(from, name)).then(
          (info) => info.size,
          () => 0,
        ),
      );
      void Promise.all(sizes).then((found) => {
        if (!live(entry) || from !== dir) return;
        entry.bytes = Math.max(entry.bytes, ...found);
        overLimit(entry, entry.bytes);
      });
    }
  };

  const finish = async (entry: DownloadEntry, from: string) => {
    const digest = await digestFile(join(from, entry.id)).catch((error: unknown) => {
      logger.warn({ err: error, id: entry.id }, 'a finished download cannot be read');
      return null;
    });
    if (!live(entry) || from !== dir) return removePartial(entry.id, from);
    if (!digest) return refuse(entry, 'failed', false);
    entry.bytes = digest.size;
    const kind = sniffKind(digest.head, digest.tail, digest.size);
    entry.kind = kind;
    entry.mime = MIME_OF[kind];
    if (digest.size > policy.max_file_bytes) return refuse(entry, 'file_too_large', false);
    if (held() > policy.max_task_bytes) return refuse(entry, 'task_limit', false);
    if (!policy.types.includes(kind)) return refuse(entry, 'type_not_allowed', false);
    entry.sha256 = digest.sha256;
    entry.state = 'completed';
    logger.info({ id: entry.id, kind, bytes: entry.bytes }, 'download completed');
  };

  browser.onBegin(begin);
  browser.onProgress(progress);

  const clear = async () => {
    const previous = dir;
    dir = null;
    policy = OFF;
    clearInterval(measuring);
    measuring = undefined;
    await browser.setDirectory(null);
    const running = [...entries.values()].filter((entry) => entry.state === 'in_progress');
    await Promise.all(running.map((entry) => browser.cancel(entry.id).catch(() => undefined)));
    await Promise.all([...finishing]);
    entries.clear();
    if (previous) await rm(previous, { recursive: true, force: true, maxRetries: 3 });
  };

  return {
    async configure(next) {
      await clear();
      if (next.download === 'allowed') {
        const fresh = join(options.root, `task-${randomUUID()}`);
        await mkdir(fresh, { recursive: true, mode: 0o700 });
        dir = fresh;
      }
      policy = next;
      await browser.setDirectory(dir);
    },
    list: () => [...entries.values()].map((entry) => ({ ...entry })),
    file(id) {
      const entry = entries.get(id);
      if (entry?.state !== 'completed' || !dir) return null;
      return { entry: { ...entry }, path: join(dir, entry.id) };
    },
    clear,
  };
}

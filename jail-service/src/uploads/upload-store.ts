// The files a task provides for upload: written into a per-task directory (inside the clone) before
// the first step, handed to each file chooser the page opens (chosen by the input's `accept`), every
// chooser listed, and the directory deleted when the task ends.

import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { writeHashed } from '@clawdie/kit/files';
import type { UploadEvent, UploadFile } from '@clawdie/kit/jail-api';
import type { Logger } from 'pino';
import { BadRequestError } from '../errors.js';

/** Choosers listed at most (the oldest are dropped). */
const MAX_EVENTS = 100;

export interface UploadStore {
  /** Streams `body` into the task's file `name` (replacing one of that name). */
  add(name: string, body: ReadableStream<Uint8Array>, maxBytes: number): Promise<UploadFile>;
  /** The file for a chooser with this `accept`, recorded as its answer; null: cancelled. */
  choose(chooser: { accept: string; origin: string }): { file: UploadFile; path: string } | null;
  list(): { files: UploadFile[]; events: UploadEvent[] };
  /** Holds `list` answers until `work` (a chooser being answered) is done. */
  track(work: Promise<void>): void;
  /** Resolves once every tracked chooser is answered. */
  settled(): Promise<void>;
  /** Deletes the directory and forgets the files and choosers. */
  clear(): Promise<void>;
}

/** Whether `name` fits an `accept` list (`.pdf`, `image/*`, `text/plain`); an empty list fits all. */
export function fitsAccept(name: string, accept: string): boolean {
  const wanted = accept
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
  if (wanted.length === 0) return true;
  const ext = extname(name).toLowerCase();
  const mime = MIME_BY_EXT[ext] ?? '';
  return wanted.some(
    (item) =>
      item === ext ||
      item === mime ||
      (item.endsWith('/*') && mime.startsWith(item.slice(0, -1))) ||
      item === '*/*',
  );
}

const MIME_BY_EXT: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.zip': 'application/zip',
};

export function createUploadStore(options: {
  root: string;
  logger: Logger;
  now?: () => number;
}): UploadStore {
  const logger = options.logger.child({ module: 'uploads' });
  const now = options.now ?? Date.now;
  let dir: string | null = null;
  const files = new Map<string, UploadFile>();
  const used = new Set<string>();
  let events: UploadEvent[] = [];
  let seq = 0;
  const answering = new Set<Promise<void>>();

  const record = (event: Omit<UploadEvent, 'seq' | 'at'>) => {
    seq += 1;
    events.push({ ...event, seq, at: now() });
    if (events.length > MAX_EVENTS) events = events.slice(-MAX_EVENTS);
  };

  return {
    async add(name, body, maxBytes) {
      if (!dir) {
        dir = join(options.root, `task-${randomUUID()}`);
        await mkdir(dir, { recursive: true, mode: 0o700 });
      }
      const path = join(dir, name);
      let written: { bytes: number; sha256: string };
      try {
        written = await writeHashed(
          body,
          path,
          maxBytes,
          () => new BadRequestError(`${name}: over ${maxBytes} bytes`, undefined, 413),
        );
      } catch (error) {
        files.delete(name);
        throw error;
      }
      const file: UploadFile = { name, ...written };
      files.set(name, file);
      logger.info(file, 'upload file stored');
      return file;
    },
    choose({ accept, origin }) {
      const all = [...files.values()];
      const fitting = all.filter((file) => fitsAccept(file.name, accept));
      const candidates = fitting.length > 0 ? fitting : all;
      const file = candidates.find((candidate) => !used.has(candidate.name)) ?? candidates[0];
      if (!file || !dir) {
        record({ outcome: 'cancelled', file: null, origin, accept: accept.slice(0, 200) });
        logger.info({ origin, accept }, 'file chooser cancelled: no file provided');
        return null;
      }
      used.add(file.name);
      record({ outcome: 'uploaded', file, origin, accept: accept.slice(0, 200) });
      logger.info({ name: file.name, origin }, 'file chooser answered');
      return { file, path: join(dir, file.name) };
    },
    list: () => ({ files: [...files.values()], events: events.map((event) => ({ ...event })) }),
    track(work) {
      const done = work.finally(() => answering.delete(done));
      answering.add(done);
    },
    async settled() {
      await Promise.allSettled([...answering]);
    },
    async clear() {
      const previous = dir;
      dir = null;
      files.clear();
      used.clear();
      events = [];
      if (previous) await rm(previous, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

// The files a task provides for upload: written into a per-task directory (inside the clone) before
// the first step, handed to each file chooser the page opens (chosen by the input's `accept`) —
// or, for a file sent with `hold`, kept back until the controlplane decides — every chooser
// listed, and the directory deleted when the task ends.

import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { writeHashed } from '@clawdie/kit/files';
import type { UploadEvent, UploadFile } from '@clawdie/kit/jail-api';
import type { Logger } from 'pino';
import { BadRequestError, NotFoundError } from '../errors.js';

/** Choosers listed at most (the oldest are dropped). */
const MAX_EVENTS = 100;

export interface UploadStore {
  /**
   * Streams `body` into the task's file `name` (replacing one of that name). `hold`: a chooser
   * this file is chosen for waits for `decide`.
   */
  add(
    name: string,
    body: ReadableStream<Uint8Array>,
    maxBytes: number,
    options?: { hold?: boolean },
  ): Promise<UploadFile>;
  /**
   * Answers a chooser with this `accept`: the fitting file is set through `setFile` now, or held
   * (sent with `hold`); none provided: cancelled. Every answer is listed. Never rejects.
   */
  answer(chooser: { accept: string; origin: string }, setFile: SetFile): Promise<void>;
  /** Sets (or refuses) the file of held chooser `seq`; the event as it ends. */
  decide(seq: number, decision: 'set' | 'refuse'): Promise<UploadEvent>;
  list(): { files: UploadFile[]; events: UploadEvent[] };
  /** Holds `list` answers until `work` (a chooser being answered) is done. */
  track(work: Promise<void>): void;
  /** Resolves once every tracked chooser is answered. */
  settled(): Promise<void>;
  /** Deletes the directory and forgets the files and choosers. */
  clear(): Promise<void>;
}

/** Sets a file on the chooser's input (CDP `DOM.setFileInputFiles`). */
export type SetFile = (path: string) => Promise<void>;

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

  /** Held choosers: how to set their file once decided. */
  const held = new Map<number, { path: string; setFile: SetFile }>();
  const holding = new Set<string>();

  const record = (event: Omit<UploadEvent, 'seq' | 'at'>) => {
    seq += 1;
    events.push({ ...event, seq, at: now() });
    if (events.length > MAX_EVENTS) {
      events = events.slice(-MAX_EVENTS);
      for (const old of held.keys()) if (old <= seq - MAX_EVENTS) held.delete(old);
    }
    return seq;
  };
  const mark = (eventSeq: number, outcome: UploadEvent['outcome']) => {
    const event = events.find((candidate) => candidate.seq === eventSeq);
    if (event) event.outcome = outcome;
  };
  /** Sets the file; the chooser's event says whether it took. */
  const set = async (eventSeq: number, path: string, setFile: SetFile) => {
    try {
      await setFile(path);
      mark(eventSeq, 'uploaded');
    } catch (error) {
      logger.warn({ err: error, seq: eventSeq }, 'the file could not be set on the chooser');
      mark(eventSeq, 'failed');
    }
  };
  const pick = (accept: string) => {
    const all = [...files.values()];
    const fitting = all.filter((file) => fitsAccept(file.name, accept));
    const candidates = fitting.length > 0 ? fitting : all;
    return candidates.find((candidate) => !used.has(candidate.name)) ?? candidates[0];
  };

  return {
    async add(name, body, maxBytes, { hold = false } = {}) {
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
      if (hold) holding.add(name);
      else holding.delete(name);
      logger.info({ ...file, hold }, 'upload file stored');
      return file;
    },
    async answer({ accept, origin }, setFile) {
      const file = pick(accept);
      const facts = { origin, accept: accept.slice(0, 200) };
      if (!file || !dir) {
        record({ outcome: 'cancelled', file: null, ...facts });
        logger.info({ origin, accept }, 'file chooser cancelled: no file provided');
        return;
      }
      used.add(file.name);
      const path = join(dir, file.name);
      if (holding.has(file.name)) {
        held.set(record({ outcome: 'held', file, ...facts }), { path, setFile });
        logger.info({ name: file.name, origin }, 'file chooser held for a decision');
        return;
      }
      await set(record({ outcome: 'uploaded', file, ...facts }), path, setFile);
      logger.info({ name: file.name, origin }, 'file chooser answered');
    },
    async decide(eventSeq, decision) {
      const waiting = held.get(eventSeq);
      const event = events.find((candidate) => candidate.seq === eventSeq);
      if (!waiting || !event) {
        if (!event) throw new NotFoundError(`no file chooser ${eventSeq}`);
        throw new BadRequestError(
          `file chooser ${eventSeq} is ${event.outcome}, not held`,
          undefined,
          409,
        );
      }
      held.delete(eventSeq);
      if (decision === 'set') await set(eventSeq, waiting.path, waiting.setFile);
      else mark(eventSeq, 'refused');
      logger.info({ seq: eventSeq, outcome: event.outcome }, 'held file chooser decided');
      return { ...event };
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
      holding.clear();
      held.clear();
      events = [];
      if (previous) await rm(previous, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

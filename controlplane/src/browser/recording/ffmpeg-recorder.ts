import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ChildRegistry } from '@clawdie/kit/runner';
import type { Logger } from 'pino';
import type { ScreencastFeed } from '../operator/screencast-feed.js';
import { mjpegParts } from './mjpeg-parts.js';
import { type FfmpegEncoder, spawnFfmpegEncoder } from './runner/ffmpeg-process.js';
import { recordingPath, type TaskRecorder } from './task-recorder.js';

export const defaultFfmpegPath = '/usr/bin/ffmpeg';

export interface FfmpegRecorderOptions {
  /** The screencast of the browser a task runs on (null: it has none, nothing is recorded). */
  feedFor: (taskId: string) => ScreencastFeed | null;
  dataDir: string;
  logger: Logger;
  /** The process's one registry (ffmpeg children are killed when the controlplane exits). */
  children: ChildRegistry;
  ffmpegPath?: string;
  /** Output frame rate (the screencast is opened at this rate too); default 4. */
  fps?: number;
  /** How long ffmpeg may take to finalise the file after the task ends; default 15 s. */
  finishGraceMs?: number;
}

/**
 * Records a task by piping its screencast's JPEG frames into ffmpeg (H.264 MP4). ffmpeg writes
 * `recording.partial.mp4`, renamed to `recordingPath` once finalised, so a file under that name is
 * always complete and never changes (backups copy it as it is). The frames are timed by their
 * arrival; a recording that got no frame, or that ffmpeg could not finalise, is deleted rather
 * than left half-written.
 */
export function createFfmpegRecorder(options: FfmpegRecorderOptions): TaskRecorder {
  const fps = options.fps ?? 4;
  return {
    start(taskId) {
      const path = recordingPath(options.dataDir, taskId);
      const stopping = new AbortController();
      const done = record(taskId, path, fps, stopping.signal, options).catch((error: unknown) =>
        options.logger.warn({ err: error, taskId }, 'task recording failed'),
      );
      return {
        path,
        async stop() {
          stopping.abort();
          await done;
        },
      };
    },
  };
}

async function record(
  taskId: string,
  path: string,
  fps: number,
  signal: AbortSignal,
  options: FfmpegRecorderOptions,
): Promise<void> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const partial = path.replace(/\.mp4$/, '.partial.mp4');
  let encoder: FfmpegEncoder;
  try {
    encoder = await spawnFfmpegEncoder({
      ffmpegPath: options.ffmpegPath ?? defaultFfmpegPath,
      fps,
      children: options.children,
      outputPath: partial,
    });
  } catch (error) {
    options.logger.warn({ err: error, taskId }, 'could not start ffmpeg; task runs unrecorded');
    return;
  }
  let frames = 0;
  try {
    const feed = options.feedFor(taskId);
    if (!feed) options.logger.warn({ taskId }, 'the task’s browser has no screencast to record');
    else if (!signal.aborted) {
      const response = await feed.open(signal);
      for await (const jpeg of mjpegParts(response.body as ReadableStream<Uint8Array>)) {
        if (signal.aborted || !(await encoder.write(jpeg))) break;
        frames += 1;
      }
    }
  } catch (error) {
    if (!signal.aborted)
      options.logger.warn({ err: error, taskId }, 'task recording lost the screencast');
  }
  const finalised = await encoder.finish(options.finishGraceMs ?? 15_000);
  if (finalised && frames > 0) {
    renameSync(partial, path);
    options.logger.info({ taskId, path, frames }, 'task recording saved');
    return;
  }
  rmSync(partial, { force: true });
  options.logger.warn(
    { taskId, frames, finalised },
    'task recording discarded (no frames, or ffmpeg did not finalise it)',
  );
}

/**
 * The recorder `serve()` uses: ffmpeg over the jail-service screencast, or undefined (with a
 * warning) when ffmpeg is not installed, in which case `record: true` tasks run unrecorded.
 */
export function createAvailableRecorder(options: {
  feedFor: (taskId: string) => ScreencastFeed | null;
  dataDir: string;
  logger: Logger;
  children: ChildRegistry;
  ffmpegPath?: string;
}): TaskRecorder | undefined {
  const ffmpegPath = options.ffmpegPath ?? defaultFfmpegPath;
  if (!existsSync(ffmpegPath)) {
    options.logger.warn(
      `task recording unavailable: no ffmpeg at ${ffmpegPath} (apt-get install ffmpeg); tasks with record: true will run without a recording`,
    );
    return undefined;
  }
  return createFfmpegRecorder({
    feedFor: options.feedFor,
    dataDir: options.dataDir,
    logger: options.logger,
    children: options.children,
    ffmpegPath,
  });
}

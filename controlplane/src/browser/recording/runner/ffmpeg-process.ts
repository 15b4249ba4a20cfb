// The ffmpeg child of a task recording: JPEG frames in on stdin, an H.264 MP4 out. Every encoder
// is killed when it outlives its `finish()` grace or when the controlplane exits.
import { type ChildProcess, spawn } from 'node:child_process';
import type { ChildRegistry } from '@clawdie/kit/runner';
import { childEnvironment } from '../../../platform/runner/child-environment.js';

export interface FfmpegEncoder {
  readonly pid: number;
  /** Writes one JPEG frame, honouring back-pressure; false once ffmpeg no longer reads. */
  write(jpeg: Uint8Array): Promise<boolean>;
  /**
   * Closes stdin so ffmpeg writes the MP4 index; SIGKILL after `graceMs`. Resolves once the
   * process is gone: true when it exited 0 (the file is finalised). Idempotent.
   */
  finish(graceMs: number): Promise<boolean>;
}

export interface FfmpegEncoderOptions {
  ffmpegPath: string;
  /** Output frame rate; gaps between frames are filled by repeating the last one. */
  fps: number;
  outputPath: string;
  /** The process's one registry: the encoder is killed when the controlplane exits. */
  children: ChildRegistry;
}

/** The argv after the program: wall-clock input timestamps, constant-rate H.264 output. */
export function ffmpegArgs(fps: number, outputPath: string): string[] {
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-use_wallclock_as_timestamps',
    '1',
    '-f',
    'image2pipe',
    '-c:v',
    'mjpeg',
    '-framerate',
    String(fps),
    '-i',
    '-',
    '-r',
    String(fps),
    '-vf',
    'pad=ceil(iw/2)*2:ceil(ih/2)*2',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    outputPath,
  ];
}

/** Starts ffmpeg; rejects when it cannot be spawned (e.g. ENOENT). */
export function spawnFfmpegEncoder(options: FfmpegEncoderOptions): Promise<FfmpegEncoder> {
  const child = spawn(options.ffmpegPath, ffmpegArgs(options.fps, options.outputPath), {
    // Nothing of the controlplane's environment (API keys, tokens): PATH only.
    env: childEnvironment({}),
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const stdin = child.stdin as NonNullable<ChildProcess['stdin']>;
  stdin.on('error', () => undefined); // EPIPE when ffmpeg dies; seen through `exited`.
  child.stderr?.resume();
  const exited = new Promise<number | null>((resolve) => {
    child.once('close', (code) => resolve(code));
  });
  let finishing: Promise<boolean> | null = null;
  const encoder: FfmpegEncoder = {
    get pid() {
      return child.pid ?? -1;
    },
    async write(jpeg) {
      if (finishing || !stdin.writable || child.exitCode !== null) return false;
      if (stdin.write(jpeg)) return true;
      await new Promise<void>((resolve) => {
        const done = () => {
          stdin.off('drain', done);
          stdin.off('close', done);
          resolve();
        };
        stdin.on('drain', done);
        stdin.on('close', done);
      });
      return stdin.writable;
    },
    finish(graceMs) {
      finishing ??= (async () => {
        stdin.end();
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        const code = await exited;
        clearTimeout(timer);
        return code === 0;
      })();
      return finishing;
    },
  };
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('spawn', () => {
      options.children.track(child, () => child.kill('SIGKILL'));
      resolve(encoder);
    });
  });
}

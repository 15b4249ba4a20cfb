// A task's recording.mp4 exists only once ffmpeg has finalised it: while the task runs ffmpeg
// writes recording.partial.mp4, renamed at the end. A backup (or the dashboard) that finds
// recording.mp4 therefore finds a complete, unchanging file.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { ScreencastFeed } from '../../../../controlplane/src/browser/operator/screencast-feed.js';
import { createFfmpegRecorder } from '../../../../controlplane/src/browser/recording/ffmpeg-recorder.js';
import { requires } from '../../../support/capabilities.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { testLauncher } from '../../../support/test-launcher.js';

/** A feed sending one JPEG part every 50 ms until its signal aborts; counts what it sent. */
function jpegFeed(jpeg: Buffer) {
  let sent = 0;
  const feed: ScreencastFeed = {
    async open(signal) {
      let timer: NodeJS.Timeout | undefined;
      const part = Buffer.concat([
        Buffer.from(`--f\r\nContent-Type: image/jpeg\r\nContent-Length: ${jpeg.length}\r\n\r\n`),
        jpeg,
        Buffer.from('\r\n'),
      ]);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          timer = setInterval(() => {
            controller.enqueue(part);
            sent += 1;
          }, 50);
          signal.addEventListener('abort', () => {
            clearInterval(timer);
            controller.close();
          });
        },
        cancel: () => clearInterval(timer),
      });
      return new Response(body, {
        headers: { 'content-type': 'multipart/x-mixed-replace; boundary=f' },
      });
    },
  };
  return { feed, sent: () => sent };
}

describe('task recording file', requires('ffmpeg'), () => {
  it('is absent under its final name while recording, complete once stopped', async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-recording-'));
    t.after(() => rmSync(dataDir, { recursive: true, force: true }));
    const jpeg = await sharp({
      create: { width: 320, height: 200, channels: 3, background: '#3a6ea5' },
    })
      .jpeg()
      .toBuffer();
    const { feed, sent } = jpegFeed(jpeg);
    const recorder = createFfmpegRecorder({
      feedFor: () => feed,
      dataDir,
      logger: silentLogger,
      children: testLauncher.children,
    });
    const recording = recorder.start('task-1');
    // ffmpeg opens its output once it has probed the input (a few seconds of frames).
    const deadline = Date.now() + 15_000;
    while (readdirSync(dirname(recording.path)).length === 0 && Date.now() < deadline)
      await delay(100);
    assert.ok(sent() > 0);
    assert.equal(existsSync(recording.path), false, 'no recording.mp4 before it is finalised');
    assert.deepEqual(readdirSync(dirname(recording.path)), ['recording.partial.mp4']);
    await recording.stop();
    assert.deepEqual(readdirSync(dirname(recording.path)), ['recording.mp4']);
    const { stdout } = await promisify(execFile)('/usr/bin/ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_name,width',
      '-of',
      'csv=p=0',
      recording.path,
    ]);
    assert.equal(stdout.trim(), 'h264,320');
  });
});

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createClawdieBrowserOperator } from '../../controlplane/src/browser/operator/clawdie-browser-operator.js';
import { createSingleBrowserProvider } from '../../controlplane/src/browser/provider/browser-provider.js';
import {
  screencastOf,
  trackLeases,
} from '../../controlplane/src/browser/provider/task-browsers.js';
import { createFfmpegRecorder } from '../../controlplane/src/browser/recording/ffmpeg-recorder.js';
import { recordingPath } from '../../controlplane/src/browser/recording/task-recorder.js';
import { demoTask } from '../../controlplane/src/platform/demo/demo-site-server.js';
import { createTaskService, type TaskService } from '../../controlplane/src/tasks/task-service.js';
import { requires } from '../support/capabilities.js';
import { silentLogger } from '../support/silent-logger.js';
import { submit } from '../support/submit-task.js';
import { testLauncher } from '../support/test-launcher.js';
import { type E2eHarness, startE2eHarness } from './e2e-harness.js';

const run = promisify(execFile);

/** Duration and frame size of an MP4, as ffprobe reads it (rejects when it is not a valid file). */
async function probe(path: string): Promise<{ duration: number; width: number; height: number }> {
  const { stdout } = await run('/usr/bin/ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'format=duration,format_name:stream=width,height,codec_name',
    '-of',
    'json',
    path,
  ]);
  const info = JSON.parse(stdout) as {
    format: { duration: string; format_name: string };
    streams: { width: number; height: number; codec_name: string }[];
  };
  assert.match(info.format.format_name, /mp4/);
  assert.equal(info.streams[0]?.codec_name, 'h264');
  return {
    duration: Number(info.format.duration),
    width: info.streams[0]?.width ?? 0,
    height: info.streams[0]?.height ?? 0,
  };
}

/** Live processes whose command line mentions `needle` (read from /proc). */
function processesMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(needle))
        pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

describe('e2e: MP4 recording of a task via ffmpeg', requires('chromium', 'ffmpeg'), () => {
  let h: E2eHarness;
  let tasks: TaskService;
  before(async () => {
    h = await startE2eHarness({
      CLAWDIE_JAIL_VIEWPORT: '1280x800',
      CLAWDIE_JAIL_DEVICE_SCALE_FACTOR: '1',
    });
    // The recorder finds the task's browser through the lease it holds, as in `npm start`.
    const endpoint = { url: h.jail.url, token: h.jail.token };
    const leases = trackLeases(
      createSingleBrowserProvider(createClawdieBrowserOperator(endpoint), endpoint),
    );
    const recorder = createFfmpegRecorder({
      children: testLauncher.children,
      feedFor: screencastOf(leases.browsers),
      dataDir: h.dataDir,
      logger: silentLogger,
    });
    tasks = createTaskService({ ...h.deps(), recorder }, undefined, leases.provider);
  });
  after(async () => {
    await tasks?.close();
    await h?.close();
  });

  it('records the demo task to a finalised MP4 at the viewport size and leaves no ffmpeg', async () => {
    h.model.setMode('normal');
    const { taskId, done } = await submit(tasks, {
      instruction: demoTask.instruction,
      start_url: `${h.siteUrl}/`,
      record: true,
    });
    const result = await done;
    assert.equal(result.status, 'finished', JSON.stringify(result));
    const path = recordingPath(h.dataDir, taskId);
    assert.ok(existsSync(path), `${path} exists`);
    const video = await probe(path);
    assert.ok(video.duration > 0, `duration ${video.duration}`);
    assert.equal(video.width, 1280);
    assert.equal(video.height, 800);
    assert.deepEqual(processesMentioning(join(h.dataDir, 'traces', taskId)), []);
  });

  it('finalises the recording of an aborted task and leaves no ffmpeg', async () => {
    h.model.setMode('hang');
    const { taskId, done } = await submit(tasks, {
      instruction: 'anything',
      start_url: `${h.siteUrl}/`,
      record: true,
    });
    const path = recordingPath(h.dataDir, taskId);
    // ffmpeg writes the partial file; recording.mp4 appears only once it is finalised.
    const partial = path.replace(/\.mp4$/, '.partial.mp4');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    assert.ok(processesMentioning(partial).length > 0, 'ffmpeg runs while the task does');
    assert.equal(existsSync(path), false, 'no recording.mp4 while recording');
    assert.equal(tasks.abort(taskId), true);
    const result = await done;
    assert.equal(result.status, 'aborted', JSON.stringify(result));
    assert.ok(existsSync(path), `${path} exists`);
    const video = await probe(path);
    assert.ok(video.duration > 0, `duration ${video.duration}`);
    assert.equal(video.width, 1280);
    assert.deepEqual(processesMentioning(join(h.dataDir, 'traces', taskId)), []);
  });

  it('does not record a task without record: true', async () => {
    h.model.setMode('normal');
    const { taskId, done } = await submit(tasks, {
      instruction: demoTask.instruction,
      start_url: `${h.siteUrl}/`,
    });
    assert.equal((await done).status, 'finished');
    assert.equal(existsSync(recordingPath(h.dataDir, taskId)), false);
  });
});

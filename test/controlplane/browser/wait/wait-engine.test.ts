import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import {
  diffThumbnails,
  thumbnailOfImage,
} from '../../../../controlplane/src/browser/wait/frame-diff.js';
import { WaitEngine } from '../../../../controlplane/src/browser/wait/wait-engine.js';
import type {
  FrameSource,
  VisualJudge,
  VisualVerdict,
} from '../../../../controlplane/src/browser/wait/wait-types.js';
import { createManualClock } from '../../../support/manual-clock.js';
import { testImages } from '../../../support/test-images.js';

/** A 1920×1080 desktop-like frame, optionally with a 16×16 icon of `icon` colour at (1800, 20). */
async function frame(icon?: string): Promise<Buffer> {
  const base = sharp({ create: { width: 1920, height: 1080, channels: 3, background: '#ececec' } });
  const overlays = [
    { input: await solid(1920, 40, '#2d2d2d'), top: 0, left: 0 },
    { input: await solid(600, 300, '#ffffff'), top: 200, left: 300 },
    ...(icon ? [{ input: await solid(16, 16, icon), top: 12, left: 1800 }] : []),
  ];
  return base.composite(overlays).jpeg({ quality: 80 }).toBuffer();
}

function solid(width: number, height: number, colour: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/** A frame source showing `current()`; counts captures and checks they never overlap. */
function frames(current: () => Buffer) {
  let active = 0;
  const stats = { captures: 0, maxConcurrent: 0 };
  const source: FrameSource = {
    key: 'display-1',
    async capture() {
      active += 1;
      stats.maxConcurrent = Math.max(stats.maxConcurrent, active);
      stats.captures += 1;
      await new Promise((resolve) => setImmediate(resolve));
      active -= 1;
      return current();
    },
  };
  return { source, stats };
}

function judge(decide: (call: number) => VisualVerdict['decision'] = () => 'watching') {
  const calls: number[] = [];
  const value: VisualJudge & { calls: number[] } = {
    calls,
    async judge(request) {
      calls.push(request.frames.length);
      return { decision: decide(calls.length), reason: `call ${calls.length}` };
    },
  };
  return value;
}

describe('wait engine', () => {
  it('on a static screen for 60 s makes ≤ 10 % of the model calls of an ungated 1 s poll', async () => {
    const clock = createManualClock(0);
    const still = await frame();
    const { source, stats } = frames(() => still);
    const model = judge();
    const engine = new WaitEngine({ images: testImages, clock, judge: model });
    const outcome = await engine.start({
      conditions: [{ type: 'visual', description: 'the export dialog says Done' }],
      timeoutMs: 60_000,
      target: { frames: source },
      // The gate alone: no stall ending (visual-watch.test.ts).
      settings: { stallPolls: 0 },
    }).outcome;
    assert.equal(outcome.status, 'timeout');
    const ungated = 60_000 / 1000;
    assert.ok(model.calls.length <= ungated * 0.1, `${model.calls.length} model calls`);
    assert.equal(outcome.evaluations, model.calls.length);
    assert.ok(outcome.skippedEvaluations >= 15, `${outcome.skippedEvaluations} skipped`);
    assert.ok(stats.captures < 60, `adaptive polling slows down: ${stats.captures} captures`);
  });

  it('detects a 16×16 icon change on a 1920×1080 screen and re-evaluates at once', async () => {
    const clock = createManualClock(0);
    const before = await frame('#c0392b');
    const after = await frame('#27ae60');
    assert.ok(
      diffThumbnails(
        await thumbnailOfImage(before, testImages),
        await thumbnailOfImage(after, testImages),
      ).changed,
    );
    const { source } = frames(() => (clock.now() >= 7000 ? after : before));
    const model = judge((call) => (call >= 2 ? 'resolved' : 'watching'));
    const outcome = await new WaitEngine({ images: testImages, clock, judge: model }).start({
      conditions: [{ type: 'visual', description: 'the status icon is green' }],
      timeoutMs: 60_000,
      target: { frames: source },
    }).outcome;
    assert.equal(outcome.status, 'resolved');
    assert.equal(model.calls.length, 2, 'one call at the start, one on the change');
    assert.ok(
      outcome.elapsedMs >= 7000 && outcome.elapsedMs <= 7000 + 3000,
      `${outcome.elapsedMs}`,
    );
    assert.equal(model.calls[1], 2, 'the judge sees the context window (previous + current frame)');
  });

  it('forces a re-evaluation on an unchanged screen after forceEvalMs', async () => {
    const clock = createManualClock(0);
    const still = await frame();
    const model = judge((call) => (call >= 2 ? 'resolved' : 'watching'));
    const outcome = await new WaitEngine({ images: testImages, clock, judge: model }).start({
      conditions: [{ type: 'visual', description: 'x' }],
      timeoutMs: 60_000,
      target: { frames: frames(() => still).source },
      settings: { forceEvalMs: 10_000 },
    }).outcome;
    assert.equal(outcome.status, 'resolved');
    assert.ok(outcome.elapsedMs >= 10_000 && outcome.elapsedMs < 13_000, `${outcome.elapsedMs}`);
  });

  it('bursts after a partial verdict', async () => {
    const clock = createManualClock(0);
    const a = await frame();
    const model = judge((call) => (call === 1 ? 'partial' : 'watching'));
    const seen: number[] = [];
    const source: FrameSource = {
      key: 'd',
      capture: async () => {
        seen.push(clock.now());
        return a;
      },
    };
    await new WaitEngine({ images: testImages, clock, judge: model }).start({
      conditions: [{ type: 'visual', description: 'x' }],
      timeoutMs: 2000,
      target: { frames: source },
    }).outcome;
    const gaps = seen.slice(1, 5).map((t, i) => t - (seen[i] as number));
    assert.deepEqual(gaps, [250, 250, 250, 250]);
  });

  it('resolves stable after the screen stops changing, cheapest conditions first (a small change held for twice the settle time)', async () => {
    const clock = createManualClock(0);
    const [a, b] = [await frame(), await frame('#000000')];
    const probeCalls: string[] = [];
    const outcome = await new WaitEngine({ images: testImages, clock }).start({
      conditions: [
        { type: 'stable', ms: 2000, afterChange: true },
        { type: 'url_matches', pattern: '*/done' },
      ],
      timeoutMs: 30_000,
      target: {
        frames: frames(() => (clock.now() < 3000 ? a : b)).source,
        probe: {
          state: async () => {
            probeCalls.push('state');
            return { url: 'https://x.test/done', title: '', loading: false };
          },
        },
      },
    }).outcome;
    assert.equal(outcome.status, 'resolved');
    // The 16×16 icon at 3 s is a small change: it counts once alone for 2 × 2000 ms.
    assert.ok(outcome.elapsedMs >= 7000 && outcome.elapsedMs < 10_000, `${outcome.elapsedMs}`);
    assert.ok(probeCalls.length > 0);
  });

  it('settles every job exactly once: resolve, cancel, abort and timeout races', async () => {
    const clock = createManualClock(0);
    const engine = new WaitEngine({ images: testImages, clock });
    let url = 'https://x.test/a';
    const probe = { state: async () => ({ url, title: '', loading: false }) };
    const controller = new AbortController();
    const jobs = Array.from({ length: 20 }, (_, i) =>
      engine.start({
        conditions: [{ type: 'url_matches', pattern: '*/b' }],
        timeoutMs: i === 19 ? 100 : 10_000,
        target: { probe },
        ...(i === 18 ? { signal: controller.signal } : {}),
      }),
    );
    controller.abort();
    assert.equal(jobs[17]?.cancel(), true);
    assert.equal(jobs[17]?.cancel(), false);
    url = 'https://x.test/b';
    const outcomes = await Promise.all(jobs.map((job) => job.outcome));
    assert.equal(new Set(outcomes.map((o) => o.id)).size, 20);
    assert.equal(outcomes.slice(0, 17).filter((o) => o.status === 'resolved').length, 17);
    assert.equal(outcomes[17]?.status, 'cancelled');
    assert.equal(outcomes[18]?.status, 'cancelled');
    assert.ok(['resolved', 'timeout'].includes(outcomes[19]?.status ?? ''));
    for (const job of jobs) assert.equal(job.cancel(), false);
    assert.equal(engine.active, 0);
  });

  it('serialises and shares captures of one display among concurrent jobs', async () => {
    const clock = createManualClock(0);
    const still = await frame();
    const { source, stats } = frames(() => still);
    const engine = new WaitEngine({ images: testImages, clock });
    const jobs = Array.from({ length: 20 }, () =>
      engine.start({
        conditions: [{ type: 'stable', ms: 1000 }],
        timeoutMs: 5000,
        target: { frames: source },
      }),
    );
    const outcomes = await Promise.all(jobs.map((job) => job.outcome));
    assert.ok(outcomes.every((o) => o.status === 'resolved'));
    assert.equal(stats.maxConcurrent, 1);
    assert.ok(stats.captures < 20 * 3, `${stats.captures} captures for 20 jobs`);
  });

  it('fails impossible jobs at once and flaky sources after repeated errors', async () => {
    const clock = createManualClock(0);
    const engine = new WaitEngine({ images: testImages, clock });
    const noJudge = await engine.start({
      conditions: [{ type: 'visual', description: 'x' }],
      timeoutMs: 1000,
      target: { frames: { key: 'k', capture: async () => Buffer.alloc(0) } },
    }).outcome;
    assert.equal(noJudge.status, 'failed');
    assert.match(noJudge.detail, /vision judge/);
    const broken = await engine.start({
      conditions: [{ type: 'text_contains', text: 'x' }],
      timeoutMs: 60_000,
      target: {
        probe: {
          state: async () => ({ url: '', title: '', loading: false }),
          text: async () => {
            throw new Error('ECONNREFUSED');
          },
        },
      },
    }).outcome;
    assert.equal(broken.status, 'failed');
    assert.match(broken.detail, /ECONNREFUSED/);
  });
});

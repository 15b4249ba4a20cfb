// The judge's temporal context (earlier frames and verdicts with their times, per condition),
// stall detection, decisive checks and the judge over a vision model (prompt, images, timeout).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import type {
  ModelRequest,
  VisionModel,
} from '../../../../controlplane/src/agent/model/chat-types.js';
import { visualCheck } from '../../../../controlplane/src/browser/wait/visual-check.js';
import { createModelVisualJudge } from '../../../../controlplane/src/browser/wait/visual-judge.js';
import { WaitEngine } from '../../../../controlplane/src/browser/wait/wait-engine.js';
import type {
  FrameSource,
  VisualDecision,
  VisualJudge,
  VisualJudgeRequest,
} from '../../../../controlplane/src/browser/wait/wait-types.js';
import { createManualClock } from '../../../support/manual-clock.js';
import { testImages } from '../../../support/test-images.js';

const screen = (colour: string) =>
  sharp({ create: { width: 640, height: 400, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();

function source(current: () => Buffer): FrameSource {
  return { key: 'display', capture: async () => current() };
}

/** A judge answering `decide(request)`; records each request. */
function scripted(decide: (request: VisualJudgeRequest) => VisualDecision) {
  const requests: VisualJudgeRequest[] = [];
  const judge: VisualJudge = {
    async judge(request) {
      requests.push(request);
      return { decision: decide(request), reason: `call ${requests.length}` };
    },
  };
  return { judge, requests };
}

describe('visual conditions: temporal context, stall, decisive checks', () => {
  it('sends each condition its own recent frames and verdicts, with their times', async () => {
    const clock = createManualClock(0);
    const [grey, blue] = [await screen('#888888'), await screen('#2040c0')];
    const { judge, requests } = scripted((request) =>
      request.condition === 'a' ? 'resolved' : 'watching',
    );
    const outcome = await new WaitEngine({ clock, images: testImages, judge }).start({
      conditions: [
        { type: 'visual', description: 'a' },
        { type: 'visual', description: 'b' },
      ],
      timeoutMs: 20_000,
      target: { frames: source(() => (Math.floor(clock.now() / 1000) % 2 ? blue : grey)) },
    }).outcome;
    assert.equal(outcome.status, 'timeout');
    for (const condition of ['a', 'b']) {
      const own = requests.filter((request) => request.condition === condition);
      const last = own.at(-1) as VisualJudgeRequest;
      assert.equal(last.frames.length, 3, 'the last 3 frames at evaluation times');
      assert.equal(last.history.length, 3, 'and the verdicts given on the earlier ones');
      assert.ok(
        last.frames.every((frame, i) => i === 0 || frame.at > (last.frames[i - 1]?.at ?? 0)),
      );
      assert.ok(last.history.every((entry) => entry.at <= last.now));
      const reasons = own.map(
        (_, i) => `call ${requests.indexOf(own[i] as VisualJudgeRequest) + 1}`,
      );
      assert.ok(
        last.history.every((entry) => reasons.includes(entry.reason)),
        `only the verdicts on ${condition}`,
      );
    }
  });

  it('ends as stalled when the screen stays still and the judge keeps saying watching', async () => {
    const clock = createManualClock(0);
    const still = await screen('#888888');
    const { judge, requests } = scripted(() => 'watching');
    const outcome = await new WaitEngine({ clock, images: testImages, judge }).start({
      conditions: [{ type: 'visual', description: 'the export says Done' }],
      timeoutMs: 600_000,
      target: { frames: source(() => still) },
    }).outcome;
    assert.equal(outcome.status, 'stalled');
    assert.match(
      outcome.detail,
      /the export says Done: stalled: the screen has not changed for 20 polls/,
    );
    assert.ok(outcome.elapsedMs > 30_000 && outcome.elapsedMs < 70_000, `${outcome.elapsedMs}`);
    assert.ok(requests.length >= 2, 'the forced re-evaluation confirmed it on the still screen');
  });

  it('keeps watching a still screen the judge calls partial, and a changing one', async () => {
    const clock = createManualClock(0);
    const still = await screen('#888888');
    const partial = await new WaitEngine({
      clock,
      images: testImages,
      judge: scripted(() => 'partial').judge,
    }).start({
      conditions: [{ type: 'visual', description: 'x' }],
      timeoutMs: 120_000,
      target: { frames: source(() => still) },
    }).outcome;
    assert.equal(partial.status, 'timeout');
    const [grey, blue] = [await screen('#888888'), await screen('#2040c0')];
    const moving = await new WaitEngine({
      clock,
      images: testImages,
      judge: scripted(() => 'watching').judge,
    }).start({
      conditions: [{ type: 'visual', description: 'x' }],
      timeoutMs: 120_000,
      target: { frames: source(() => (Math.floor(clock.now() / 5000) % 2 ? blue : grey)) },
    }).outcome;
    assert.equal(moving.status, 'timeout');
  });

  it('decides a check at the first resolved or watching verdict, and watches through partial', async () => {
    const clock = createManualClock(0);
    const [grey, blue] = [await screen('#888888'), await screen('#2040c0')];
    const frames = source(() => (clock.now() >= 1000 ? blue : grey));
    const { judge, requests } = scripted((request) =>
      request.frames.length === 1 ? 'partial' : 'resolved',
    );
    const check = visualCheck(new WaitEngine({ clock, images: testImages, judge }), frames);
    assert.ok(check);
    assert.deepEqual(await check('the tick is green'), { kind: 'held' });
    assert.equal(requests.length, 2, 'partial, then resolved on the changed screen');
    assert.equal(requests[1]?.history[0]?.decision, 'partial');
    const never = visualCheck(
      new WaitEngine({ clock, images: testImages, judge: scripted(() => 'watching').judge }),
      frames,
    );
    assert.deepEqual(await never?.('the tick is green'), {
      kind: 'unmet',
      missing: 'the tick is green: call 1',
    });
    assert.equal(visualCheck(new WaitEngine({ clock, images: testImages }), frames), undefined);
  });
});

describe('the judge over a vision model', () => {
  it('sends the frames as images and the earlier verdicts with their ages', async () => {
    const seen: ModelRequest[] = [];
    const model: VisionModel = {
      name: 'judge',
      isReplay: false,
      async complete(request) {
        seen.push(request);
        return {
          text: 'It shows.\nFINAL_JSON: {"decision":"resolved","reason":"tick"}',
          requestBytes: 1,
          usage: null,
        };
      },
    };
    const jpeg = await screen('#20a040');
    const verdict = await createModelVisualJudge(model).judge({
      condition: 'a green tick is shown',
      frames: [
        { jpeg, at: 1000 },
        { jpeg, at: 4000 },
      ],
      history: [{ at: 1500, decision: 'partial', reason: 'spinner' }],
      now: 5000,
    });
    assert.deepEqual(verdict, { decision: 'resolved', reason: 'tick' });
    const parts = seen[0]?.messages[0]?.content;
    assert.ok(Array.isArray(parts));
    const text = parts[0]?.type === 'text' ? parts[0].text : '';
    assert.match(text, /Condition: a green tick is shown/);
    assert.match(text, /taken 4\.0 s ago and 1\.0 s ago/);
    assert.match(text, /partial \(spinner\) 3\.5 s ago/);
    assert.deepEqual(
      parts.slice(1).map((part) => part.type === 'image_url' && part.image_url.url.slice(0, 23)),
      ['data:image/jpeg;base64,', 'data:image/jpeg;base64,'],
    );
  });

  it('bounds a verdict by its timeout (MODEL_TIMEOUT)', async () => {
    const hanging: VisionModel = {
      name: 'judge',
      isReplay: false,
      complete: (_request, signal) =>
        new Promise((_, reject) =>
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true }),
        ),
    };
    // AbortSignal.timeout does not keep the process alive; a server would.
    const alive = setInterval(() => undefined, 1000);
    await assert.rejects(
      createModelVisualJudge(hanging, { timeoutMs: 50 }).judge({
        condition: 'x',
        frames: [],
        history: [],
        now: 0,
      }),
      { code: 'MODEL_TIMEOUT' },
    );
    clearInterval(alive);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { runAgentLoop } from '../../../../controlplane/src/agent/loop/loop.js';
import {
  DEFAULT_LOOP_GUARD,
  LoopGuard,
} from '../../../../controlplane/src/agent/loop/loop-guard.js';
import { normaliseTurn } from '../../../../controlplane/src/agent/loop/loop-guard-hash.js';
import type { LoopEvent, LoopOptions } from '../../../../controlplane/src/agent/loop/loop-types.js';
import type {
  ModelRequest,
  VisionModel,
} from '../../../../controlplane/src/agent/model/chat-types.js';
import type { BrowserOperator } from '../../../../controlplane/src/browser/operator/browser-operator.js';
import { thumbnailOfImage } from '../../../../controlplane/src/browser/wait/frame-diff.js';
import { unpolicedGate } from '../../../../controlplane/src/governance/policy/unpoliced-gate.js';
import { createFakeOperator, type FakeOperatorOptions } from '../../../support/fake-operator.js';
import { createManualClock } from '../../../support/manual-clock.js';
import { testImages } from '../../../support/test-images.js';
import { testLoopOptions } from '../../../support/test-task-deps.js';

const CLICK = "Thought: Click Save.\nAction: click(start_box='<|box_start|>(300,200)<|box_end|>')";

/** A model that answers from a function of the call number, advancing the clock per call. */
function model(
  reply: (call: number) => string,
  clock?: { advance(ms: number): void },
  msPerCall = 0,
): VisionModel & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    name: 'scripted',
    isReplay: true,
    requests,
    async complete(request) {
      requests.push(structuredClone(request));
      clock?.advance(msPerCall);
      return { text: reply(requests.length), requestBytes: 1, usage: null };
    },
  };
}

const notes = (request: ModelRequest | undefined) =>
  (request?.messages ?? [])
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .flatMap((p) => (p.type === 'text' ? [p.text] : []));

async function run(
  vision: VisionModel,
  overrides: Partial<LoopOptions> = {},
  operator: BrowserOperator | FakeOperatorOptions = {},
  clock = createManualClock(),
) {
  const events: LoopEvent[] = [];
  const op = 'screenshot' in operator ? operator : createFakeOperator(operator).operator;
  const result = await runAgentLoop(
    { instruction: 'Save the document', ...testLoopOptions({ maxSteps: 30 }), ...overrides },
    {
      model: vision,
      operator: op,
      clock,
      images: testImages,
      gate: unpolicedGate(undefined),
      emit: (event) => void events.push(event),
    },
  );
  return { result, events };
}

describe('loop guard', () => {
  it('nudges a model that repeats the same failing click, then stops it with STUCK', async () => {
    const vision = model(() => CLICK);
    const { result, events } = await run(vision, {}, { failType: 'click' });
    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'STUCK');
    assert.match(result.error?.message ?? '', /repeated click\(@15,10\) 9 times/);
    assert.equal(result.stepCount, DEFAULT_LOOP_GUARD.repeatStopAt);
    const nudges = events.filter((e) => e.type === 'loop-nudged');
    assert.deepEqual(
      nudges.map((e) => [e.step, e.level]),
      [
        [3, 1],
        [5, 2],
        [7, 3],
      ],
    );
    // Each nudge rides on the next screenshot, escalating; the last one offers call_user().
    assert.ok(notes(vision.requests[3]).some((t) => t.includes('try something different')));
    assert.ok(notes(vision.requests[5]).some((t) => t.includes('Stop repeating it')));
    assert.ok(notes(vision.requests[7]).some((t) => t.includes('call_user()')));
    assert.equal(events.filter((e) => e.type === 'loop-stopped').length, 1);
    assert.equal(events.at(-1)?.type, 'final-screenshot-taken');
  });

  it('lets a nudged model recover: a different action resets the ladder', async () => {
    const vision = model((call) =>
      call <= 3
        ? CLICK
        : call === 4
          ? "Action: hotkey(key='ctrl s')"
          : "Action: finished(content='saved')",
    );
    const { result, events } = await run(vision, {}, { failType: 'click' });
    assert.equal(result.status, 'finished');
    assert.equal(events.filter((e) => e.type === 'loop-nudged').length, 1);
  });

  it('can end a stuck task with call_user instead of an error', async () => {
    const { result } = await run(
      model(() => CLICK),
      { guard: { onStop: 'call_user', repeatStopAt: 4 } },
    );
    assert.equal(result.status, 'call_user');
    assert.match(result.summary ?? '', /stuck/);
    assert.equal(result.stepCount, 4);
  });

  it('detects stagnation: different actions that never change the screen', async () => {
    const vision = model(
      (call) => `Action: click(start_box='<|box_start|>(${call * 60},100)<|box_end|>')`,
    );
    const { result, events } = await run(vision, { guard: { repeatStopAt: 99 } });
    assert.equal(result.error?.code, 'STUCK');
    assert.match(result.error?.message ?? '', /steps in a row left the screen unchanged/);
    assert.ok(events.some((e) => e.type === 'loop-nudged' && e.reason === 'stagnation'));
  });

  it('never counts wait() as a repeat', async () => {
    const { result, events } = await run(
      model(() => 'Action: wait()'),
      { maxSteps: 12 },
    );
    assert.equal(result.status, 'max_steps');
    assert.equal(events.filter((e) => e.type === 'loop-nudged').length, 0);
  });

  it('reports a task-stuck event with a resume summary after the configured idle time', async () => {
    const clock = createManualClock();
    const vision = model(() => CLICK, clock, 40_000);
    const { events } = await run(
      vision,
      { guard: { stuckAfterMs: 100_000 } },
      { failType: 'click' },
      clock,
    );
    const stuck = events.filter((e) => e.type === 'task-stuck');
    assert.equal(stuck.length, 1, 'reported once per idle period');
    const [report] = stuck;
    assert.ok(report && report.type === 'task-stuck');
    assert.equal(report.step, 3);
    assert.ok(report.idleMs >= 100_000);
    assert.match(report.summary, /Task: Save the document/);
    assert.match(report.summary, /Recent actions: click\(@15,10\)/);
    assert.match(report.summary, /Last thought: Click Save\./);
  });

  it('stays off when disabled', async () => {
    const { result } = await run(
      model(() => CLICK),
      { guard: false, maxSteps: 12 },
      { failType: 'click' },
    );
    assert.equal(result.status, 'max_steps');
  });
});

describe('LoopGuard state', () => {
  const frame = async (colour: string) =>
    thumbnailOfImage(
      await sharp({ create: { width: 320, height: 200, channels: 3, background: colour } })
        .png()
        .toBuffer(),
      testImages,
    );

  it('counts progress when the screen changes and re-arms the stuck report', async () => {
    const guard = new LoopGuard({ ...DEFAULT_LOOP_GUARD, stuckAfterMs: 1000 }, 0);
    const red = await frame('#ff0000');
    const blue = await frame('#0000ff');
    guard.observeScreen(red, 0);
    guard.observeTurn('click(@1,1)', null);
    assert.equal(guard.stuck(500, 1, 'x'), null);
    assert.ok(guard.stuck(1500, 2, 'x'));
    assert.equal(guard.stuck(1600, 2, 'x'), null, 'once per idle period');
    guard.observeScreen(blue, 1700);
    assert.equal(guard.stuck(2000, 3, 'x'), null);
    assert.ok(guard.stuck(2800, 4, 'x'));
  });

  it('normalises turns: nearby clicks and argument spelling hash alike', () => {
    const a = normaliseTurn([{ name: 'click', args: {}, start: { x: 301, y: 199 } }], 20);
    const b = normaliseTurn([{ name: 'click', args: {}, start: { x: 296, y: 204 } }], 20);
    assert.equal(a, b);
    const typed = (content: string) => normaliseTurn([{ name: 'type', args: { content } }], 20);
    assert.equal(typed('Hello  World '), typed('hello world'));
    assert.equal(normaliseTurn([{ name: 'wait', args: {} }], 20), null);
  });
});

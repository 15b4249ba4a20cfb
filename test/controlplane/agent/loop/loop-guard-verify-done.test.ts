import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAgentLoop } from '../../../../controlplane/src/agent/loop/loop.js';
import type {
  LoopDeps,
  LoopEvent,
  LoopOptions,
} from '../../../../controlplane/src/agent/loop/loop-types.js';
import { createDoneVerifier } from '../../../../controlplane/src/agent/loop/verify-done.js';
import type {
  ModelRequest,
  VisionModel,
} from '../../../../controlplane/src/agent/model/chat-types.js';
import { operatorFrames } from '../../../../controlplane/src/browser/wait/jail-page-probe.js';
import { visualCheck } from '../../../../controlplane/src/browser/wait/visual-check.js';
import { WaitEngine } from '../../../../controlplane/src/browser/wait/wait-engine.js';
import type { VisualJudge } from '../../../../controlplane/src/browser/wait/wait-types.js';
import { unpolicedGate } from '../../../../controlplane/src/governance/policy/unpoliced-gate.js';
import {
  browserRunTaskInputSchema,
  successConditions,
} from '../../../../controlplane/src/tasks/task-input.js';
import { createFakeOperator } from '../../../support/fake-operator.js';
import { createManualClock } from '../../../support/manual-clock.js';
import { testImages } from '../../../support/test-images.js';
import { testLoopOptions } from '../../../support/test-task-deps.js';

function model(replies: string[]): VisionModel & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    name: 'scripted',
    isReplay: true,
    requests,
    async complete(request) {
      requests.push(structuredClone(request));
      return {
        text: replies.shift() ?? "Action: finished(content='done')",
        requestBytes: 1,
        usage: null,
      };
    },
  };
}

const notes = (request: ModelRequest | undefined) =>
  (request?.messages ?? [])
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .flatMap((p) => (p.type === 'text' ? [p.text] : []));

async function run(
  vision: VisionModel,
  overrides: Partial<LoopOptions>,
  extra: Partial<LoopDeps> = {},
) {
  const fake = createFakeOperator();
  const events: LoopEvent[] = [];
  const result = await runAgentLoop(
    { instruction: 'Place the order', ...testLoopOptions(), ...overrides },
    {
      model: vision,
      operator: fake.operator,
      clock: createManualClock(),
      images: testImages,
      gate: unpolicedGate(undefined),
      emit: (event) => void events.push(event),
      ...extra,
    },
  );
  return { result, events };
}

describe('verify-before-done', () => {
  it('rejects finished() until the URL criterion holds, telling the model what is missing', async () => {
    const vision = model([
      "Action: finished(content='ordered')",
      "Action: navigate(content='https://shop.test/orders/42')",
      "Action: finished(content='ordered')",
    ]);
    const { result, events } = await run(vision, {
      successCriteria: [{ type: 'url_matches', pattern: 'https://shop.test/orders/*' }],
    });
    assert.equal(result.status, 'finished');
    assert.equal(result.stepCount, 3);
    const verdicts = events.filter((e) => e.type === 'done-rejected' || e.type === 'done-verified');
    assert.deepEqual(
      verdicts.map((e) => e.type),
      ['done-rejected', 'done-verified'],
    );
    assert.ok(
      notes(vision.requests[1]).some(
        (t) => t.includes('not finished yet') && t.includes('not https://shop.test/orders/*'),
      ),
    );
  });

  it('checks text through a page probe and a visual criterion through the judge', async () => {
    let text = 'Your cart';
    let judged = 0;
    const judge: VisualJudge = {
      async judge(request) {
        judged += 1;
        assert.equal(request.frames.length, 1);
        return { decision: 'resolved', reason: 'green tick visible' };
      },
    };
    const fake = createFakeOperator();
    const waits = new WaitEngine({ clock: createManualClock(), images: testImages, judge });
    const verifier = createDoneVerifier({
      probe: { state: () => fake.operator.state(), text: async () => text },
      visual: visualCheck(waits, operatorFrames(fake.operator, 'screen')),
    });
    const vision = model([
      "Action: finished(content='x')",
      "Action: click(start_box='<|box_start|>(100,100)<|box_end|>')",
    ]);
    const wrapped: VisionModel = {
      ...vision,
      complete: async (request) => {
        if (vision.requests.length === 1) text = 'Thank you! Order confirmed';
        return vision.complete(request);
      },
    };
    const { result } = await run(
      wrapped,
      {
        successCriteria: successConditions({
          text_contains: ['order confirmed'],
          text_absent: ['Your cart'],
          visual: 'a green tick is shown',
        }),
      },
      { verifier },
    );
    assert.equal(result.status, 'finished');
    assert.equal(result.stepCount, 3);
    assert.equal(judged, 1, 'no vision call while a cheap criterion fails');
    assert.ok(notes(vision.requests[1]).some((t) => t.includes('does not show "order confirmed"')));
  });

  it('does not block on criteria the environment cannot check, but reports them', async () => {
    const { result, events } = await run(model([]), {
      successCriteria: [
        { type: 'text_contains', text: 'x' },
        { type: 'visual', description: 'a tick' },
      ],
    });
    assert.equal(result.status, 'finished');
    const verified = events.find((e) => e.type === 'done-verified');
    assert.ok(verified && verified.type === 'done-verified');
    assert.equal(verified.unverified.length, 2);
  });

  it('ends a model that keeps calling finished() early as STUCK, not forever', async () => {
    const { result } = await run(model(Array(20).fill("Action: finished(content='x')")), {
      maxSteps: 20,
      successCriteria: [{ type: 'url_matches', pattern: '/never/' }],
    });
    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'STUCK');
  });

  it('accepts success_criteria in the task input', () => {
    const parsed = browserRunTaskInputSchema.parse({
      instruction: 'x',
      success_criteria: { url_matches: '/orders\\/\\d+/', text_contains: ['Thanks'] },
    });
    assert.deepEqual(successConditions(parsed.success_criteria), [
      { type: 'url_matches', pattern: '/orders\\/\\d+/' },
      { type: 'text_contains', text: 'Thanks' },
    ]);
    assert.throws(() =>
      browserRunTaskInputSchema.parse({ instruction: 'x', success_criteria: { foo: 1 } }),
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAgentLoop } from '../../../../controlplane/src/agent/loop/loop.js';
import type { LoopEvent, LoopOptions } from '../../../../controlplane/src/agent/loop/loop-types.js';
import type {
  ModelRequest,
  VisionModel,
} from '../../../../controlplane/src/agent/model/chat-types.js';
import { ModelError } from '../../../../controlplane/src/errors.js';
import { unpolicedGate } from '../../../../controlplane/src/governance/policy/unpoliced-gate.js';
import { createFakeOperator, type FakeOperatorOptions } from '../../../support/fake-operator.js';
import { createManualClock } from '../../../support/manual-clock.js';
import { testImages } from '../../../support/test-images.js';
import { testLoopOptions } from '../../../support/test-task-deps.js';

const options: LoopOptions = { instruction: 'Do the thing', ...testLoopOptions({ waitMs: 5000 }) };

/** A model scripted with texts (or errors), recording every request it receives. */
function scriptedModel(script: (string | Error)[]): VisionModel & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    name: 'scripted',
    isReplay: true,
    requests,
    async complete(request, signal) {
      signal?.throwIfAborted();
      requests.push(structuredClone(request));
      const next = script.shift();
      if (next === undefined)
        return { text: 'Thought: idle\nAction: wait()', requestBytes: 1, usage: null };
      if (next instanceof Error) throw next;
      return { text: next, requestBytes: JSON.stringify(request).length, usage: null };
    },
  };
}

async function run(
  script: (string | Error)[],
  operatorOptions: FakeOperatorOptions = {},
  overrides: Partial<LoopOptions> = {},
  signal?: AbortSignal,
) {
  const model = scriptedModel(script);
  const fake = createFakeOperator(operatorOptions);
  const events: LoopEvent[] = [];
  const result = await runAgentLoop(
    { ...options, ...overrides },
    {
      model,
      operator: fake.operator,
      clock: createManualClock(),
      images: testImages,
      gate: unpolicedGate(undefined),
      emit: (event) => void events.push(event),
      ...(signal ? { signal } : {}),
    },
  );
  return { result, model, executed: fake.executed, events };
}

const notes = (request: ModelRequest | undefined) =>
  (request?.messages ?? [])
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .flatMap((p) => (p.type === 'text' ? [p.text] : []));

describe('agent loop', () => {
  it('clicks where a UI-TARS-1.5 model points and ends with the finished() content', async () => {
    // 1280×800 screenshot → smart_resize 1288×812: (644,406) is the screen centre (640,400).
    const { result, executed, events } = await run([
      "Thought: Click the centre.\nAction: click(start_box='<|box_start|>(644,406)<|box_end|>')",
      "Thought: Done.\nAction: finished(content='ORD-1')",
    ]);
    assert.deepEqual(result, { status: 'finished', summary: 'ORD-1', error: null, stepCount: 2 });
    assert.deepEqual(executed, [{ type: 'click', x: 640, y: 400 }]);
    const types = events.map((e) => e.type);
    assert.deepEqual(types.slice(0, 5), [
      'step-started',
      'screenshot-taken',
      'prediction-received',
      'actions-executed',
      'step-ended',
    ]);
    assert.equal(types.at(-1), 'final-screenshot-taken');
  });

  it('maps to CSS pixels on a DPR 2 screen', async () => {
    const { executed } = await run(
      ["Action: click(start_box='<|box_start|>(644,406)<|box_end|>')", 'Action: finished()'],
      { viewport: { width: 640, height: 400 }, devicePixelRatio: 2 },
    );
    assert.deepEqual(executed, [{ type: 'click', x: 320, y: 200 }]);
  });

  it('runs several actions of one reply as one batch, in order', async () => {
    const { executed, events } = await run([
      "Action: click(start_box='(100,100)')\n\ntype(content='hello\\n')",
      'Action: finished()',
    ]);
    assert.deepEqual(
      executed.map((a) => a.type),
      ['click', 'type'],
    );
    assert.deepEqual(executed[1], { type: 'type', text: 'hello\n' });
    const batches = events.filter((e) => e.type === 'actions-executed');
    assert.equal(batches.length, 1);
  });

  it('feeds an unparseable reply back to the model and carries on', async () => {
    const { result, model } = await run([
      'I am not sure what to do.',
      "Thought: ok\nAction: finished(content='x')",
    ]);
    assert.equal(result.status, 'finished');
    assert.equal(result.stepCount, 2);
    assert.ok(notes(model.requests[1]).some((text) => text.includes('could not be used')));
  });

  it('ends with PARSE_FAILED after the configured number of unusable replies in a row', async () => {
    const { result } = await run(['garbage', 'click(start_box=', 'still nothing']);
    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'PARSE_FAILED');
    assert.equal(result.stepCount, 3);
  });

  it('tells the model an action failed and ignores finished() in the same reply', async () => {
    const { result, model } = await run(
      [
        "Action: click(start_box='(10,10)')\n\nfinished(content='too early')",
        "Action: finished(content='later')",
      ],
      { failType: 'click' },
    );
    assert.equal(result.summary, 'later');
    assert.ok(
      notes(model.requests[1]).some(
        (text) => text.includes('did not work') && text.includes('scripted failure'),
      ),
    );
  });

  it('ends call_user and max_steps with their statuses', async () => {
    const callUser = await run(['Action: call_user()']);
    assert.equal(callUser.result.status, 'call_user');
    const capped = await run([], {}, { maxSteps: 3 });
    assert.equal(capped.result.status, 'max_steps');
    assert.equal(capped.result.stepCount, 3);
    assert.equal(capped.executed.filter((a) => a.type === 'wait').length, 3);
  });

  it('sends at most imageWindow screenshots per request', async () => {
    const { model } = await run([], {}, { maxSteps: 8, imageWindow: 5 });
    const images = model.requests.map(
      (r) =>
        r.messages
          .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
          .filter((p) => p.type === 'image_url').length,
    );
    // Full at 5, then the oldest leave three at a time (profiles/image-window.ts).
    assert.deepEqual(images, [1, 2, 3, 4, 5, 3, 4, 5]);
  });

  it('turns model and browser outages into typed errors', async () => {
    const modelDown = await run([
      new ModelError('MODEL_UNAVAILABLE', 'model server answered HTTP 500'),
    ]);
    assert.equal(modelDown.result.status, 'error');
    assert.equal(modelDown.result.error?.code, 'MODEL_UNAVAILABLE');
    const browserDown = await run(["Action: click(start_box='(10,10)')"], { dieAfterCalls: 3 });
    assert.equal(browserDown.result.status, 'error');
    assert.equal(browserDown.result.error?.code, 'OPERATOR_UNAVAILABLE');
  });

  it('ends aborted when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { result } = await run(['Action: finished()'], {}, {}, controller.signal);
    assert.equal(result.status, 'aborted');
  });

  it('reports a batch the browser rejects (HTTP 400) to the model instead of failing the task', async () => {
    const { result, model, events } = await run(
      ["Action: hotkey(key='hyper q')", 'Action: finished()'],
      { rejectType: 'hotkey' },
    );
    assert.equal(result.status, 'finished');
    assert.ok(notes(model.requests[1]).some((text) => text.includes('UNKNOWN_KEY')));
    const ended = events.find((e) => e.type === 'step-ended' && e.step === 1);
    assert.equal(ended?.type === 'step-ended' ? ended.outcome : null, 'action_error');
  });
});

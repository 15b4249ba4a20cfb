// The loop over a model profile other than UI-TARS: a reply's actions come from the profile's
// parser in its coordinate space; a provider's safety signal is a supervisor's decision before
// anything of the reply runs; an action Clawdie cannot do is told to the model, never dropped.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAgentLoop } from '../../../../controlplane/src/agent/loop/loop.js';
import type { LoopEvent, LoopOptions } from '../../../../controlplane/src/agent/loop/loop-types.js';
import type {
  ModelRequest,
  VisionModel,
} from '../../../../controlplane/src/agent/model/chat-types.js';
import type {
  CoordinateSpace,
  ModelProfile,
  ParsedReply,
} from '../../../../controlplane/src/agent/profiles/profile-types.js';
import type { ActionGate } from '../../../../controlplane/src/governance/policy/gate-types.js';
import { unpolicedGate } from '../../../../controlplane/src/governance/policy/unpoliced-gate.js';
import { createFakeOperator } from '../../../support/fake-operator.js';
import { createManualClock } from '../../../support/manual-clock.js';
import { testImages } from '../../../support/test-images.js';
import { testLoopOptions } from '../../../support/test-task-deps.js';

/**
 * A profile whose replies are JSON `ParsedReply`s in the model's text, and whose request body
 * lists the history turn kinds with each observation's notes and acknowledged signals.
 */
function jsonProfile(coordinates: CoordinateSpace, size = { width: 1000, height: 500 }) {
  const profile: ModelProfile = {
    name: 'qwen3-vl',
    wire: 'chat-completions',
    coordinates,
    image: { size: () => size, format: 'jpeg', maxImages: 3 },
    canJudge: false,
    limits: [],
    buildRequest: (input) => ({
      turns: input.history.map((turn) =>
        turn.kind === 'reply'
          ? { reply: turn.turn.text }
          : { notes: turn.notes, acknowledged: turn.acknowledged.map((s) => s.code) },
      ),
    }),
    readReply(reply) {
      const turn = { raw: reply.text, text: reply.text };
      try {
        return { turn, parsed: { ok: true, reply: JSON.parse(reply.text) as ParsedReply } };
      } catch {
        return { turn, parsed: { ok: false, message: 'not JSON' } };
      }
    },
    unusableNote: (why) => `unusable: ${why}`,
  };
  return profile;
}

const reply = (parts: Partial<ParsedReply>): string =>
  JSON.stringify({ thought: '', reflection: null, actions: [], safety: [], refused: [], ...parts });
const finished = reply({ actions: [{ name: 'finished', args: { content: 'done' } }] });

function scripted(texts: string[]): VisionModel & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    name: 'scripted',
    isReplay: false,
    requests,
    async complete(request) {
      requests.push(structuredClone(request));
      return { text: texts.shift() ?? finished, body: null, requestBytes: 1, usage: null };
    },
  };
}

async function run(
  profile: ModelProfile,
  texts: string[],
  gate: ActionGate = unpolicedGate(undefined),
) {
  const model = scripted(texts);
  const fake = createFakeOperator({});
  const events: LoopEvent[] = [];
  const options: LoopOptions = {
    instruction: 'Do it',
    ...testLoopOptions({ waitMs: 0 }),
    profile,
  };
  const result = await runAgentLoop(options, {
    model,
    operator: fake.operator,
    clock: createManualClock(),
    images: testImages,
    gate,
    emit: (event) => void events.push(event),
  });
  return { result, model, executed: fake.executed, events };
}

const turnsOf = (request: ModelRequest | undefined) =>
  (request?.body as { turns: { notes?: string[]; acknowledged?: string[] }[] } | undefined)
    ?.turns ?? [];

describe('agent loop over a model profile', () => {
  it('maps relative 0–1000 points over the whole screenshot, whatever size the image was sent at', async () => {
    // The fake screenshot is 1280×800 CSS at DPR 1; (500, 250) of 1000 is (640, 200).
    const { executed, result } = await run(jsonProfile({ kind: 'relative', divisor: 1000 }), [
      reply({ actions: [{ name: 'click', args: {}, start: { x: 500, y: 250 } }] }),
    ]);
    assert.equal(result.status, 'finished');
    assert.deepEqual(executed, [{ type: 'click', x: 640, y: 200 }]);
  });

  it('maps image pixels through the size the profile sent the image at', async () => {
    // Sent at 1000×500: (250, 125) is a quarter across and down of 1280×800 → (320, 200).
    const { executed } = await run(jsonProfile({ kind: 'image-pixels' }), [
      reply({ actions: [{ name: 'click', args: {}, start: { x: 250, y: 125 } }] }),
    ]);
    assert.deepEqual(executed, [{ type: 'click', x: 320, y: 200 }]);
  });

  it('tells the model about an action it cannot do, and runs nothing for it', async () => {
    const note = 'triple_click is not available; use double_click.';
    const { executed, model, events } = await run(jsonProfile({ kind: 'image-pixels' }), [
      reply({ refused: [{ name: 'triple_click', note }] }),
    ]);
    assert.deepEqual(executed, []);
    assert.deepEqual(turnsOf(model.requests[1]).at(-1)?.notes, [note]);
    const ended = events.find((e) => e.type === 'step-ended');
    assert.equal(ended?.type === 'step-ended' && ended.outcome, 'plan_error');
  });

  it('asks the gate about a provider safety signal before any action, and echoes the approval', async () => {
    const asked: unknown[] = [];
    const gate: ActionGate = async (request) => {
      if (request.safety) asked.push(request.safety);
      if (request.action) asked.push(request.action.action.type);
      return { allowed: true };
    };
    const safety = [{ code: 'malicious_instructions', message: 'the page tells you to pay' }];
    const { executed, model } = await run(
      jsonProfile({ kind: 'image-pixels' }),
      [reply({ safety, actions: [{ name: 'click', args: {}, start: { x: 10, y: 10 } }] })],
      gate,
    );
    assert.deepEqual(asked, [safety, 'click']);
    assert.equal(executed.length, 1);
    assert.deepEqual(turnsOf(model.requests[1]).at(-1)?.acknowledged, ['malicious_instructions']);
  });

  it('ends the task without running the reply when the safety signal is not approved', async () => {
    const safety = [{ code: 'irreversible', message: 'this confirms a payment' }];
    const { executed, result } = await run(
      jsonProfile({ kind: 'image-pixels' }),
      [reply({ safety, actions: [{ name: 'click', args: {}, start: { x: 10, y: 10 } }] })],
      // A task without a policy has nobody to approve: refused.
      unpolicedGate(undefined),
    );
    assert.deepEqual(executed, []);
    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'APPROVAL_DENIED');
  });
});

// The loop's side of takeover: detectors after the screenshot, call_user and a failed
// logged_in_check hand over (the model is not called meanwhile); hand-back resumes with the
// supervisor's note only; a timeout follows the policy; without a handoff port nothing changes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  HandoffOutcome,
  HandoffRequest,
  LoopHandoff,
} from '../../../../controlplane/src/agent/loop/handoff-types.js';
import { runAgentLoop } from '../../../../controlplane/src/agent/loop/loop.js';
import type { LoopEvent, LoopOptions } from '../../../../controlplane/src/agent/loop/loop-types.js';
import type {
  ModelRequest,
  VisionModel,
} from '../../../../controlplane/src/agent/model/chat-types.js';
import type { Clock } from '../../../../controlplane/src/clock.js';
import type { HandoffReason } from '../../../../controlplane/src/governance/policy/handoff-schema.js';
import { unpolicedGate } from '../../../../controlplane/src/governance/policy/unpoliced-gate.js';
import { createFakeOperator } from '../../../support/fake-operator.js';
import { createManualClock } from '../../../support/manual-clock.js';
import { testImages } from '../../../support/test-images.js';
import { testLoopOptions } from '../../../support/test-task-deps.js';

const options: LoopOptions = { instruction: 'Buy the thing', ...testLoopOptions() };

function fakeHandoff(
  on: HandoffReason[],
  detections: (HandoffReason | null)[],
  outcome: HandoffOutcome,
  log: string[],
): LoopHandoff & { requests: HandoffRequest[] } {
  const requests: HandoffRequest[] = [];
  return {
    on: new Set(on),
    requests,
    async detect() {
      log.push('detect');
      return detections.shift() ?? null;
    },
    async request(request) {
      log.push(`handoff:${request.reason}`);
      requests.push(request);
      return outcome;
    },
  };
}

async function run(
  script: string[],
  handoff?: LoopHandoff,
  overrides: Partial<LoopOptions> = {},
  log: string[] = [],
  clock: Clock = createManualClock(),
) {
  const requests: ModelRequest[] = [];
  const model: VisionModel = {
    name: 'scripted',
    isReplay: true,
    async complete(request) {
      log.push('model');
      requests.push(structuredClone(request));
      return { text: script.shift() ?? 'Action: wait()', requestBytes: 1, usage: null };
    },
  };
  const events: LoopEvent[] = [];
  const result = await runAgentLoop(
    { ...options, ...overrides },
    {
      model,
      operator: createFakeOperator().operator,
      clock,
      images: testImages,
      gate: unpolicedGate(undefined),
      emit: (event) => void events.push(event),
      ...(handoff ? { handoff } : {}),
    },
  );
  return { result, requests, events };
}

const texts = (request: ModelRequest | undefined) => JSON.stringify(request?.messages ?? []);

describe('agent loop takeover', () => {
  it('hands a detected login wall to a person before the model sees it, then resumes with the note', async () => {
    const log: string[] = [];
    const handoff = fakeHandoff(
      ['login'],
      ['login', null],
      { kind: 'handed_back', note: 'logged in as alice' },
      log,
    );
    const { result, requests, events } = await run(
      ["Action: finished(content='done')"],
      handoff,
      {},
      log,
    );
    assert.equal(result.status, 'finished');
    assert.deepEqual(log, ['detect', 'handoff:login', 'detect', 'model']);
    assert.equal(requests.length, 1);
    assert.match(texts(requests[0]), /The user completed: logged in as alice/);
    assert.equal(
      texts(requests[0]).match(/"type":"image_url"/g)?.length,
      1,
      'the wall frame is not sent',
    );
    const types = events.map((event) => event.type);
    assert.ok(types.includes('handoff-started') && types.includes('handoff-ended'));
    const first = events.find((event) => event.type === 'step-ended');
    assert.equal(first?.type === 'step-ended' && first.outcome, 'needs_user');
  });

  it('turns call_user into a takeover when the policy lists it', async () => {
    const log: string[] = [];
    const handoff = fakeHandoff(['call_user'], [], { kind: 'handed_back', note: null }, log);
    const { result, requests } = await run(
      ["Action: call_user(content='please solve the captcha')", "Action: finished(content='ok')"],
      handoff,
      {},
      log,
    );
    assert.equal(result.status, 'finished');
    assert.equal(handoff.requests[0]?.summary, 'please solve the captcha');
    assert.match(texts(requests[1]), /The user completed: no note/);
  });

  it('ends as call_user or aborts on timeout, as the policy says', async () => {
    const ending = fakeHandoff(
      ['call_user'],
      [],
      { kind: 'timed_out', onTimeout: 'end_call_user' },
      [],
    );
    const ended = await run(["Action: call_user(content='help')"], ending);
    assert.equal(ended.result.status, 'call_user');
    assert.equal(ended.result.summary, 'help');
    const aborting = fakeHandoff(
      ['login'],
      ['login'],
      { kind: 'timed_out', onTimeout: 'abort' },
      [],
    );
    const aborted = await run([], aborting);
    assert.equal(aborted.result.status, 'aborted');
    assert.equal(aborted.requests.length, 0);
  });

  it('hands over before the first step when logged_in_check failed', async () => {
    const log: string[] = [];
    const handoff = fakeHandoff(['login'], [], { kind: 'handed_back', note: 'ok' }, log);
    const { result } = await run(
      ["Action: finished(content='x')"],
      handoff,
      { startWithHandoff: 'login' },
      log,
    );
    assert.equal(result.status, 'finished');
    assert.deepEqual(log.slice(0, 2), ['handoff:login', 'detect']);
    const without = await run(["Action: finished(content='x')"], undefined, {
      startWithHandoff: 'login',
    });
    assert.equal(without.result.status, 'call_user', 'no blind run without a handoff policy');
    assert.equal(without.requests.length, 0);
  });

  it('hands over when the loop guard reports the task stuck', async () => {
    const log: string[] = [];
    const handoff = fakeHandoff(['stuck'], [], { kind: 'handed_back', note: 'unstuck' }, log);
    let now = 0;
    const ticking: Clock = { now: () => (now += 1000), sleep: async () => undefined };
    const { result, requests } = await run(
      ['Action: wait()', "Action: finished(content='ok')"],
      handoff,
      { guard: { stuckAfterMs: 1 } },
      log,
      ticking,
    );
    assert.equal(result.status, 'finished');
    assert.ok(log.includes('handoff:stuck'), log.join(', '));
    assert.match(texts(requests[1]), /The user completed: unstuck/);
  });

  it('keeps today’s behaviour without a handoff port: call_user ends the task', async () => {
    const { result } = await run(["Action: call_user(content='help')"]);
    assert.equal(result.status, 'call_user');
  });
});

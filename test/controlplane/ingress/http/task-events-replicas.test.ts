// Two controlplanes on one database (replicas; here SQLite, each with its own in-process channel,
// so the second learns of new events by polling): a task run by the first streams live from the
// second over HTTP, a dropped stream resumes there with Last-Event-ID without a gap or a
// duplicate, and a task whose runner died before its result ends with the row's result once
// another replica's recovery ended the row.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { VisionModel } from '../../../../controlplane/src/agent/model/chat-types.js';
import { createTestControlplane, type TestControlplane } from '../../../support/controlplane.js';
import { submit } from '../../../support/submit-task.js';

/** A model that answers only when released: one reply per `release()`, in order. */
function gatedModel(replies: string[]) {
  let credits = 0;
  let next = 0;
  let wake: (() => void) | null = null;
  const model: VisionModel = {
    name: 'gated',
    isReplay: true,
    async complete(_request, signal) {
      while (credits === 0) {
        signal?.throwIfAborted();
        await new Promise<void>((resolve) => {
          wake = resolve;
          signal?.addEventListener('abort', () => resolve(), { once: true });
        });
      }
      credits--;
      return { text: replies[next++] ?? '', requestBytes: 1, usage: null };
    },
  };
  return {
    model,
    release() {
      credits++;
      wake?.();
    },
  };
}

interface SseEvent {
  id: string | undefined;
  event: string | undefined;
  data: any;
}
const parsed = ({ id, event, data }: EventSourceMessage): SseEvent => ({
  id,
  event,
  data: JSON.parse(data),
});
const ids = (events: SseEvent[]) => events.map(({ id, event }) => `${id} ${event}`);

/** An SSE connection read event by event (eventsource-parser), and whether the server ended it. */
async function openEvents(url: string, lastEventId?: string) {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: lastEventId ? { 'last-event-id': lastEventId } : {},
    signal: controller.signal,
  });
  assert.equal(response.status, 200);
  const queue: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => queue.push(event) });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let ended = false;
  const fill = async () => {
    const { value, done } = await reader.read();
    if (done) ended = true;
    else parser.feed(decoder.decode(value, { stream: true }));
  };
  return {
    /** The next `count` events as [id, event] (waits for them). */
    async take(count: number) {
      while (queue.length < count && !ended) await fill();
      return queue.splice(0, count).map(parsed);
    },
    /** Everything until the server ends the stream. */
    async rest() {
      while (!ended) await fill();
      return queue.splice(0).map(parsed);
    },
    close: () => controller.abort(),
  };
}

describe('task events across two replicas (SSE over HTTP)', () => {
  const gate = gatedModel([
    "Action: click(start_box='<|box_start|>(644,406)<|box_end|>')",
    "Action: type(content='demo')",
    "Action: finished(content='done')",
  ]);
  let runner: TestControlplane;
  let other: TestControlplane;
  let runnerUrl: string;
  let otherUrl: string;
  before(async () => {
    runner = await createTestControlplane({ model: gate.model });
    other = await createTestControlplane({ config: runner.config, model: gate.model });
    runnerUrl = await runner.serve();
    otherUrl = await other.serve();
  });
  after(async () => {
    await other.close();
    await runner.close();
  });

  it('streams a task live from the other replica, and resumes there after Last-Event-ID', async () => {
    const { taskId, done } = await submit(runner.tasks, { instruction: 'stream me elsewhere' });
    const first = await openEvents(`${otherUrl}/v1/tasks/${taskId}/events`);
    assert.deepEqual(ids(await first.take(2)), ['1 status', '2 status']);
    gate.release();
    const [step] = await first.take(1);
    assert.deepEqual([step?.id, step?.event, step?.data.step], ['3', 'step', 1]);
    first.close();
    gate.release();
    gate.release();
    await done;
    const resumed = await openEvents(`${otherUrl}/v1/tasks/${taskId}/events`, '3');
    const rest = await resumed.rest();
    assert.deepEqual(ids(rest), ['4 step', '5 step', '6 result']);
    assert.equal(rest[2]?.data.summary, 'done');
  });

  it('ends a task whose runner died before its result with the row the recovery ended', async () => {
    const { taskId } = await submit(runner.tasks, { instruction: 'my runner dies' });
    // The model never answers: the task hangs on its runner, as if that process were gone.
    const onRunner = await openEvents(`${runnerUrl}/v1/tasks/${taskId}/events`);
    assert.deepEqual(ids(await onRunner.take(2)), ['1 status', '2 status']);
    onRunner.close();
    // Another replica's recovery ends the row of a task whose owner is gone.
    assert.equal((await other.repository.failInterrupted(Date.now(), [])).length, 1);
    const resumed = await openEvents(`${otherUrl}/v1/tasks/${taskId}/events`, '2');
    const rest = await resumed.rest();
    assert.deepEqual(ids(rest), ['3 result']);
    assert.equal(rest[0]?.data.error.code, 'INTERRUPTED');
    // A client resuming after that result is done at once, on either replica.
    for (const url of [otherUrl, runnerUrl])
      assert.deepEqual(
        await (await openEvents(`${url}/v1/tasks/${taskId}/events`, '3')).rest(),
        [],
      );
  });
});

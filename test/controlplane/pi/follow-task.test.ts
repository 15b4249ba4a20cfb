import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createControlplaneClient,
  type FetchLike,
} from '../../../controlplane/pi-extension/controlplane-client.js';
import { ControlplaneError } from '../../../controlplane/pi-extension/errors.js';
import { followTask } from '../../../controlplane/pi-extension/follow-task.js';
import type { TaskProgress } from '../../../controlplane/pi-extension/format.js';
import { createReplayModel } from '../../../controlplane/src/agent/model/replay-model.js';
import { startTestControlplane, type TestControlplane } from './controlplane-fixture.js';

const fast = { attempts: 2, initialDelayMs: 5, maxDelayMs: 20 };
const replies = [
  "Action: click(start_box='<|box_start|>(644,406)<|box_end|>')",
  "Action: type(content='demo')",
  "Action: finished(content='done')",
];

type Block = 'pass' | 'drop' | 'cut' | 'hang';

/**
 * Rewrites an SSE body event by event: pass it, drop it, cut the connection before it (like a
 * reset socket), or hold the connection open without it.
 */
function rewrite(source: ReadableStream<Uint8Array>, decide: (block: string) => Block) {
  const reader = source.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = '';
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end !== -1) {
          const block = buffer.slice(0, end + 2);
          buffer = buffer.slice(end + 2);
          const verdict = decide(block);
          if (verdict === 'pass') return controller.enqueue(encoder.encode(block));
          if (verdict === 'cut') {
            await reader.cancel();
            return controller.error(new TypeError('terminated'));
          }
          if (verdict === 'hang') return new Promise<void>(() => undefined);
          continue;
        }
        const { value, done } = await reader.read();
        if (done) return controller.close();
        buffer += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  });
}

/** A fetch that sends /events answers through `decide`, recording Last-Event-ID headers. */
function eventsFetch(decide: (block: string, connection: number) => Block | 'refuse') {
  const lastIds: Array<string | null> = [];
  const fetchImpl: FetchLike = async (input, init) => {
    if (!input.endsWith('/events')) return fetch(input, init);
    lastIds.push(new Headers(init.headers).get('last-event-id'));
    const connection = lastIds.length;
    if (decide('', connection) === 'refuse') {
      return Response.json({ error: { code: 'X', message: 'overloaded' } }, { status: 503 });
    }
    const response = await fetch(input, init);
    const rewritten = rewrite(response.body as ReadableStream<Uint8Array>, (block) => {
      const verdict = decide(block, connection);
      return verdict === 'refuse' ? 'pass' : verdict;
    });
    return new Response(rewritten, { status: response.status, headers: response.headers });
  };
  return { fetchImpl, lastIds };
}

describe('followTask against a real controlplane', () => {
  let controlplane: TestControlplane;
  const start = async (fetchImpl: FetchLike) => {
    const client = createControlplaneClient({
      url: controlplane.url,
      token: null,
      fetch: fetchImpl,
    });
    return { client, traceId: await client.startTask({ instruction: 'follow me' }) };
  };
  before(async () => {
    controlplane = await startTestControlplane({
      model: createReplayModel([...replies, ...replies, ...replies, ...replies, ...replies]),
    });
  });
  after(() => controlplane.close());

  it('resumes a dropped stream with Last-Event-ID and reports each step once', async () => {
    const { fetchImpl, lastIds } = eventsFetch((block, connection) =>
      connection === 1 && block.includes('id: 4\n') ? 'cut' : 'pass',
    );
    const { client, traceId } = await start(fetchImpl);
    const progress: TaskProgress[] = [];
    const result = await followTask(client, traceId, {
      onProgress: (update) => progress.push(update),
      retry: fast,
    });
    assert.equal(result.status, 'finished');
    assert.equal(result.trace_id, traceId);
    assert.deepEqual(lastIds, [null, '3']);
    assert.deepEqual(
      progress.filter((update) => update.step).map((update) => update.step?.step),
      [1, 2, 3],
    );
  });

  it('falls back to polling when the stream cannot be opened', async () => {
    const { fetchImpl, lastIds } = eventsFetch(() => 'refuse');
    const { client, traceId } = await start(fetchImpl);
    const progress: TaskProgress[] = [];
    const result = await followTask(client, traceId, {
      onProgress: (update) => progress.push(update),
      retry: fast,
      pollIntervalMs: 10,
    });
    assert.equal(result.status, 'finished');
    assert.equal(lastIds.length, fast.attempts + 1);
    for (const update of progress) assert.equal(update.trace_id, traceId);
  });

  it('fetches the result when the stream holds back the final event', async () => {
    const { fetchImpl } = eventsFetch((block) =>
      block.includes('event: result') ? 'hang' : 'pass',
    );
    const { client, traceId } = await start(fetchImpl);
    const result = await followTask(client, traceId, {
      onProgress: () => undefined,
      retry: fast,
      stallCheckMs: 50,
    });
    assert.equal(result.status, 'finished');
  });

  it('fails at once for a task the controlplane does not know', async () => {
    const client = createControlplaneClient({ url: controlplane.url, token: null });
    await assert.rejects(
      followTask(client, 'no-such-task', { onProgress: () => undefined, retry: fast }),
      (error: unknown) => {
        assert.ok(error instanceof ControlplaneError);
        assert.equal(error.status, 404);
        assert.match(error.message, /HTTP 404 NOT_FOUND: no task with trace_id no-such-task/);
        return true;
      },
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  EventStreamLostError,
  followEventStream,
  parseServerSentEvents,
  type ServerSentEvent,
} from '../../../controlplane/pi-extension/sse-client.js';

const encoder = new TextEncoder();

/** A body that delivers `chunks`, then either ends, fails like a dropped socket, or stays open. */
function body(chunks: string[], end: 'close' | 'drop' | 'hang' = 'close') {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk !== undefined) return controller.enqueue(encoder.encode(chunk));
      if (end === 'close') return controller.close();
      if (end === 'drop') return controller.error(new TypeError('terminated'));
      return new Promise<void>(() => undefined);
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>) {
  const events: ServerSentEvent[] = [];
  for await (const event of parseServerSentEvents(stream)) events.push(event);
  return events;
}

const fast = { attempts: 2, initialDelayMs: 1, maxDelayMs: 5 };

describe('parseServerSentEvents', () => {
  it('parses fields, comments, multi-line data and every kind of line end', async () => {
    const text =
      ': hello\r\nid: 1\r\nevent: status\r\ndata: {"a":1}\r\n\r\n' +
      'data: line one\rdata:line two\r\r' +
      'id: 7\nevent: step\ndata: x\n\n' +
      'data: unterminated';
    assert.deepEqual(await collect(body([text])), [
      { id: '1', event: 'status', data: '{"a":1}' },
      { id: '1', event: 'message', data: 'line one\nline two' },
      { id: '7', event: 'step', data: 'x' },
    ]);
  });

  it('copes with chunk boundaries anywhere, inside CRLF and multi-byte characters', async () => {
    const bytes = encoder.encode('id: 3\r\nevent: result\r\ndata: {"summary":"café ✓"}\r\n\r\n');
    const chunks = [...bytes].map((byte) => new Uint8Array([byte]));
    let index = 0;
    let activity = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks[index++];
        if (chunk) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const events: ServerSentEvent[] = [];
    for await (const event of parseServerSentEvents(stream, () => activity++)) events.push(event);
    assert.deepEqual(events, [{ id: '3', event: 'result', data: '{"summary":"café ✓"}' }]);
    assert.equal(activity, chunks.length);
  });
});

describe('followEventStream', () => {
  it('reconnects after a dropped connection with Last-Event-ID', async () => {
    const opened: Array<string | null> = [];
    const seen: string[] = [];
    await followEventStream({
      open: async (lastEventId) => {
        opened.push(lastEventId);
        return opened.length === 1
          ? body(['id: 1\nevent: step\ndata: a\n\n', 'id: 2\nevent: step\ndata: b\n\n'], 'drop')
          : body(['id: 3\nevent: result\ndata: c\n\n']);
      },
      onEvent: (event) => {
        seen.push(`${event.id}:${event.event}:${event.data}`);
        return event.event === 'result';
      },
      retry: fast,
    });
    assert.deepEqual(opened, [null, '2']);
    assert.deepEqual(seen, ['1:step:a', '2:step:b', '3:result:c']);
  });

  it('treats a stream that ends early or goes silent as dropped', async () => {
    const opened: Array<string | null> = [];
    await followEventStream({
      open: async (lastEventId) => {
        opened.push(lastEventId);
        if (opened.length === 1) return body(['id: 1\ndata: a\n\n']);
        if (opened.length === 2) return body([': keep-alive\n\n'], 'hang');
        return body(['id: 2\nevent: result\ndata: b\n\n']);
      },
      onEvent: (event) => event.event === 'result',
      retry: { attempts: 3, initialDelayMs: 1, maxDelayMs: 5 },
      idleTimeoutMs: 50,
    });
    assert.deepEqual(opened, [null, '1', '1']);
  });

  it('gives up after the retry budget with EventStreamLostError', async () => {
    let opens = 0;
    await assert.rejects(
      followEventStream({
        open: async () => {
          opens += 1;
          return opens === 1 ? body(['id: 4\ndata: a\n\n'], 'drop') : body([], 'drop');
        },
        onEvent: () => false,
        retry: fast,
      }),
      (error: unknown) => {
        assert.ok(error instanceof EventStreamLostError);
        assert.equal(error.lastEventId, '4');
        assert.match(error.message, /after 2 reconnection attempts: terminated/);
        return true;
      },
    );
    assert.equal(opens, 3);
  });

  it('does not retry errors that are not retryable', async () => {
    let opens = 0;
    const refusal = Object.assign(new Error('HTTP 404'), { retryable: false });
    await assert.rejects(
      followEventStream({
        open: async () => {
          opens += 1;
          throw refusal;
        },
        onEvent: () => false,
        retry: fast,
      }),
      (error) => error === refusal,
    );
    assert.equal(opens, 1);
  });

  it('rejects promptly when the signal aborts, also during back-off', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const following = followEventStream({
      open: async () => {
        setTimeout(() => controller.abort(new Error('stop')), 20);
        return body([], 'drop');
      },
      onEvent: () => false,
      signal: controller.signal,
      retry: { attempts: 5, initialDelayMs: 10_000, maxDelayMs: 10_000 },
    });
    await assert.rejects(following);
    assert.ok(Date.now() - started < 2000);
  });
});

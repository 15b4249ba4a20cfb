// The one replay-then-live SSE loop (`@clawdie/kit/sse`), over an in-memory numbered log
// served by a real Hono app: resume after Last-Event-ID, live entries after the replay, each id
// exactly once when entries arrive while the history is read or sent, the end of the source.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ReplayOptions, type ReplaySource, streamReplay } from '@clawdie/kit/sse';
import { Hono } from 'hono';

interface Entry {
  id: number;
  text: string;
}

/** A numbered log like the task event log: `add` numbers the entry and tells the listeners. */
function numberedLog() {
  const entries: Entry[] = [];
  const listeners = new Set<(entry: Entry) => void>();
  const add = (text: string) => {
    const entry = { id: entries.length + 1, text };
    entries.push(entry);
    for (const listener of listeners) listener(entry);
    return entry;
  };
  const source: ReplaySource<Entry> = {
    since: (lastId) => entries.filter((entry) => entry.id > lastId),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { add, source, listeners };
}

function serve(options: Omit<ReplayOptions<Entry>, 'idOf' | 'message'>) {
  const app = new Hono();
  app.get('/events', (c) =>
    streamReplay(c, {
      idOf: (entry) => entry.id,
      message: (entry) => ({ event: 'entry', data: JSON.stringify(entry) }),
      ...options,
    }),
  );
  return app;
}

/** Reads the raw stream block by block; `next` waits for the next event (comments included). */
function reader(response: Response) {
  const body = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(): Promise<string | null> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          return block;
        }
        const { value, done } = await body.read();
        if (done) return null;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    /** Every remaining block until the stream ends. */
    async rest(): Promise<string[]> {
      const blocks: string[] = [];
      for (let block = await this.next(); block !== null; block = await this.next())
        blocks.push(block);
      return blocks;
    },
    cancel: () => body.cancel(),
  };
}

const idsOf = (blocks: string[]) =>
  blocks.flatMap((block) => /^id: (\d+)$/m.exec(block)?.[1] ?? []).map(Number);

describe('replayThenLive (@clawdie/kit/sse)', () => {
  it('resumes after Last-Event-ID, then streams live entries until the last one', async () => {
    const log = numberedLog();
    for (const text of ['a', 'b', 'c', 'd']) log.add(text);
    const app = serve({ source: log.source, lastId: 2, isLast: (entry) => entry.text === 'end' });
    const read = reader(await app.request('/events'));
    assert.equal(await read.next(), 'event: entry\ndata: {"id":3,"text":"c"}\nid: 3');
    assert.equal(idsOf([(await read.next()) ?? '']).at(0), 4);
    log.add('e');
    log.add('end');
    log.add('after the end');
    assert.deepEqual(idsOf(await read.rest()), [5, 6]);
    assert.equal(log.listeners.size, 0, 'unsubscribed when the stream ended');
  });

  it('sends each id once when an entry arrives while the history is read', async () => {
    const log = numberedLog();
    log.add('a');
    // One entry is added before the snapshot is taken (it is in the history AND told live), one
    // after it (told live only): neither is lost, neither is sent twice.
    const racing: ReplaySource<Entry> = {
      subscribe: log.source.subscribe,
      since(lastId) {
        log.add('both in the history and live');
        const snapshot = log.source.since(lastId);
        log.add('live only');
        return snapshot;
      },
    };
    const app = serve({ source: racing, lastId: 0, isLast: (entry) => entry.text === 'end' });
    const read = reader(await app.request('/events'));
    assert.equal(idsOf([(await read.next()) ?? ''])[0], 1);
    log.add('end');
    assert.deepEqual(idsOf(await read.rest()), [2, 3, 4]);
  });

  it('sends each id once when entries arrive while earlier ones are being sent', async () => {
    const log = numberedLog();
    for (let i = 0; i < 50; i++) log.add(`old ${i}`);
    const app = serve({ source: log.source, lastId: 10, isLast: (entry) => entry.text === 'end' });
    const read = reader(await app.request('/events'));
    const blocks = [(await read.next()) ?? ''];
    // The replay of 11…50 is under way: add live entries between reads.
    for (let i = 0; i < 20; i++) {
      log.add(`new ${i}`);
      blocks.push((await read.next()) ?? '');
    }
    log.add('end');
    blocks.push(...(await read.rest()));
    const ids = idsOf(blocks);
    assert.deepEqual(
      ids,
      Array.from({ length: 61 }, (_, i) => i + 11),
      'ids 11 to 71, each once, in order',
    );
  });

  it('flushes what is pending when the source ends, then sends the final message', async () => {
    const log = numberedLog();
    log.add('a');
    let end: () => void = () => undefined;
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    const app = serve({
      source: log.source,
      lastId: 0,
      ended,
      final: (lastSentId) => ({ event: 'over', data: JSON.stringify({ lastSentId }) }),
    });
    const read = reader(await app.request('/events'));
    assert.equal(idsOf([(await read.next()) ?? ''])[0], 1);
    log.add('b');
    end();
    assert.deepEqual(await read.rest(), [
      'event: entry\ndata: {"id":2,"text":"b"}\nid: 2',
      'event: over\ndata: {"lastSentId":2}',
    ]);
  });

  it('keeps an idle stream alive with a comment and unsubscribes when the client leaves', async () => {
    const log = numberedLog();
    const app = serve({ source: log.source, lastId: 0, heartbeatMs: 20 });
    const read = reader(await app.request('/events'));
    assert.equal(await read.next(), ': keep-alive');
    assert.equal(log.listeners.size, 1);
    await read.cancel();
    for (let i = 0; i < 100 && log.listeners.size > 0; i++)
      await new Promise((resolve) => setImmediate(resolve));
    assert.equal(log.listeners.size, 0);
  });
});

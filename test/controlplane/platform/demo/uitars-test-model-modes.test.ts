import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startScriptedModel } from '../../../support/uitars-test-model.js';
import { demoElements, jailPage } from '../../../support/uitars-test-model-fake-jail.js';
import {
  actionsOf,
  complete,
  contentOf,
  screenshotMessages,
  setup,
} from './uitars-test-helpers.js';

describe('UI-TARS test model failure modes', () => {
  it('records every request: body size, messages and image count', async (t) => {
    const { jail, model } = await setup(t);
    jail.page = jailPage('http://127.0.0.1:9/search', 'Search', [demoElements.searchBox]);
    const messages = await screenshotMessages(1288, 812, ['Thought: a\nAction: wait()']);
    const body = JSON.stringify({ model: 'ui-tars-1.5-7b', messages });
    await contentOf(await complete(model, messages, { body }));
    const [record] = model.requests;
    assert.ok(record);
    assert.equal(record.bodyBytes, Buffer.byteLength(body));
    assert.equal(record.imageCount, 2);
    assert.equal(record.messages.length, messages.length);
    assert.equal(record.status, 200);
    assert.equal(record.mode, 'normal');
    assert.equal(model.replies.length, 1);
  });

  it('fails with HTTP 500, garbage, call_user, out-of-range and broken JSON on demand', async (t) => {
    const { jail, model } = await setup(t, { mode: 'http500' });
    jail.page = jailPage('http://127.0.0.1:9/search', 'Search', [demoElements.searchBox]);
    const messages = await screenshotMessages(1288, 812);
    const failed = await complete(model, messages);
    assert.equal(failed.status, 500);
    assert.equal(((await failed.json()) as { error: { type: string } }).error.type, 'server_error');

    model.setMode('garbage');
    const garbage = await contentOf(await complete(model, messages));
    assert.doesNotMatch(garbage, /Action:|\w+\(.*\)/);

    model.setMode('call-user');
    assert.deepEqual(actionsOf(await contentOf(await complete(model, messages))), ['call_user()']);

    model.setMode('out-of-range');
    const [outside] = actionsOf(await contentOf(await complete(model, messages)));
    const match = /\((\d+),(\d+)\)/.exec(outside ?? '');
    assert.ok(match && Number(match[1]) > 1288 && Number(match[2]) > 812);

    model.setMode('invalid-json');
    const broken = await complete(model, messages);
    assert.equal(broken.status, 200);
    await assert.rejects(broken.json());
  });

  it('repeats the same click when stuck, and reverts after a counted mode', async (t) => {
    const { jail, model } = await setup(t);
    jail.page = jailPage('http://127.0.0.1:9/search', 'Search', [demoElements.searchBox]);
    const messages = await screenshotMessages(1288, 812);
    model.setMode('repeat-click', { count: 2 });
    const first = await contentOf(await complete(model, messages));
    const second = await contentOf(await complete(model, messages));
    assert.equal(first, second);
    assert.deepEqual(actionsOf(first), ["click(start_box='<|box_start|>(644,406)<|box_end|>')"]);
    assert.equal(model.mode, 'normal');
    assert.match(await contentOf(await complete(model, messages)), /type\(content='lamp\\n'\)/);
  });

  it('hangs until the client gives up, and still closes promptly', async (t) => {
    const { model } = await setup(t, { mode: 'hang' });
    const messages = await screenshotMessages(1288, 812);
    await assert.rejects(complete(model, messages, { signal: AbortSignal.timeout(200) }), {
      name: 'TimeoutError',
    });
    const pending = complete(model, messages).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await model.close();
    assert.ok((await pending) instanceof Error, 'the hanging request is dropped on close');
    assert.ok(Date.now() - started < 1000);
    assert.equal(model.requests[0]?.status, null);
  });

  it('delays answers, checks the API key and needs an image', async (t) => {
    const { jail, model } = await setup(t, { apiKey: 'sk-test', delayMs: 150 });
    jail.page = jailPage('http://127.0.0.1:9/search', 'Search', [demoElements.searchBox]);
    const messages = await screenshotMessages(1288, 812);
    assert.equal((await complete(model, messages)).status, 401);
    const headers = { 'content-type': 'application/json', authorization: 'Bearer sk-test' };
    const started = Date.now();
    await contentOf(await complete(model, messages, { headers }));
    assert.ok(Date.now() - started >= 140);
    model.setDelay(0);
    const textOnly = await complete(model, [{ role: 'user', content: 'hello' }], { headers });
    assert.equal(textOnly.status, 400);
  });

  it('streams as server-sent events when asked', async (t) => {
    const { jail, model } = await setup(t);
    jail.page = jailPage('http://127.0.0.1:9/search', 'Search', [demoElements.searchBox]);
    const messages = await screenshotMessages(1288, 812);
    const response = await complete(model, messages, {
      body: JSON.stringify({ messages, stream: true }),
    });
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    const events = (await response.text()).split('\n\n').filter(Boolean);
    assert.equal(events.at(-1), 'data: [DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.slice('data: '.length)));
    assert.ok(chunks.length > 3, 'the reply arrives as several content deltas');
    const text = chunks.map((chunk) => chunk.choices[0].delta.content ?? '').join('');
    assert.match(text, /type\(content='lamp\\n'\)/);
    assert.equal(chunks.at(-1).choices[0].finish_reason, 'stop');
  });
});

describe('scripted model', () => {
  it('returns the fixed outputs in order, then fails', async (t) => {
    const model = await startScriptedModel(['Thought: one\nAction: wait()', 'Action: finished()']);
    t.after(() => model.close());
    const messages = [{ role: 'user', content: 'go' }];
    assert.equal(await contentOf(await complete(model, messages)), 'Thought: one\nAction: wait()');
    assert.equal(await contentOf(await complete(model, messages)), 'Action: finished()');
    assert.equal((await complete(model, messages)).status, 500);
    assert.equal(model.requests.length, 3);
  });
});

import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { VisionModel } from '../../../../controlplane/src/agent/model/chat-types.js';
import type { ScreencastFeed } from '../../../../controlplane/src/browser/operator/screencast-feed.js';
import { submit } from '../../../support/submit-task.js';
import { clickThenFinish, createDashboardFixture } from './dashboard-fixture.js';

/** A feed that sends a part every 10 ms until its signal aborts. */
function fakeFeed() {
  const signals: AbortSignal[] = [];
  const feed: ScreencastFeed = {
    async open(signal) {
      signals.push(signal);
      let timer: NodeJS.Timeout | undefined;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          timer = setInterval(() => controller.enqueue(new TextEncoder().encode('--f\r\n')), 10);
          signal.addEventListener('abort', () => {
            clearInterval(timer);
            controller.close();
          });
        },
        cancel: () => clearInterval(timer),
      });
      return new Response(body, {
        headers: { 'content-type': 'multipart/x-mixed-replace; boundary=f' },
      });
    },
  };
  return { feed, signals };
}

describe('dashboard screencast relay', () => {
  it('relays the feed of an active task and ends it when the task ends', async () => {
    let taskId = '';
    const { feed, signals } = fakeFeed();
    const model: VisionModel = {
      name: 'pausing',
      isReplay: true,
      async complete(request) {
        const turn = request.messages.filter((message) => message.role === 'assistant').length;
        if (turn === 0) await fixture.tasks.pause?.(taskId);
        return { text: clickThenFinish[turn] ?? 'Action: wait()', requestBytes: 1, usage: null };
      },
    };
    const fixture = await createDashboardFixture({ model, screencast: () => feed });
    after(() => fixture.close());
    const cookie = await fixture.login();
    const started = await submit(fixture.tasks, { instruction: 'watch me' });
    taskId = started.taskId;

    const response = await fixture.app.request(`/dashboard/tasks/${taskId}/screencast`, {
      headers: { cookie },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'multipart/x-mixed-replace; boundary=f');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    assert.equal((await reader.read()).done, false);
    fixture.tasks.abort(taskId);
    await started.done;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      // Drain until the relay closes.
    }
    assert.equal(signals[0]?.aborted, true, 'the upstream feed was released');

    const ended = await fixture.app.request(`/dashboard/tasks/${taskId}/screencast`, {
      headers: { cookie },
    });
    assert.equal(ended.status, 404);
  });
});

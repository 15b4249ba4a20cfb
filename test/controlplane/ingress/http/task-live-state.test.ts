// Issue 13 (6): step_count and `paused` are true while a task runs, on REST, SSE and the dashboard
// alike (one task row on a real SQLite file).
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { VisionModel } from '../../../../controlplane/src/agent/model/chat-types.js';
import { submit } from '../../../support/submit-task.js';
import { createDashboardFixture } from '../dashboard/dashboard-fixture.js';

const replies = [
  "Action: click(start_box='<|box_start|>(644,406)<|box_end|>')",
  "Action: scroll(start_box='<|box_start|>(300,300)<|box_end|>', direction='down')",
  "Action: click(start_box='<|box_start|>(100,100)<|box_end|>')",
  "Action: finished(content='done')",
];

/** Replies in order; the reply of turn n waits for `release(n)` when n is in `held`. */
function heldModel(held: number[]) {
  const releases = new Map<number, () => void>();
  const waits = new Map(
    held.map((turn) => [turn, new Promise<void>((resolve) => releases.set(turn, resolve))]),
  );
  const model: VisionModel = {
    name: 'held',
    isReplay: true,
    async complete(request) {
      const turn = request.messages.filter((message) => message.role === 'assistant').length;
      await waits.get(turn);
      return { text: replies[turn] ?? 'Action: wait()', requestBytes: 1, usage: null };
    },
  };
  return { model, release: (turn: number) => releases.get(turn)?.() };
}

interface SseEvent {
  event: string;
  data: any;
}

/** Reads an SSE response as it arrives; `until` resolves with every event so far once one matches. */
function sseReader(response: Response) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let buffer = '';
  return {
    events,
    async until(match: (event: SseEvent) => boolean): Promise<SseEvent[]> {
      while (!events.some(match)) {
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended before the event');
        buffer += decoder.decode(value, { stream: true });
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop() ?? '';
        for (const block of blocks) {
          const lines = block.split('\n');
          const field = (name: string) =>
            lines
              .find((line) => line.startsWith(`${name}:`))
              ?.slice(name.length + 1)
              .trim();
          const data = field('data');
          if (data) events.push({ event: field('event') ?? '', data: JSON.parse(data) });
        }
      }
      return events;
    },
    cancel: () => reader.cancel(),
  };
}

const until = async (check: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 500 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(await check(), 'condition not reached');
};

describe('live task state', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'clawdie-live-state-'));
  const { model, release } = heldModel([2, 3]);
  const fixture = await createDashboardFixture({ model, env: { CLAWDIE_DATA_DIR: dir } });
  after(() => fixture.close());
  const started = await submit(fixture.tasks, { instruction: 'live state' });
  const { taskId } = started;
  const rest = async () => (await (await fixture.app.request(`/v1/tasks/${taskId}`)).json()) as any;
  const listed = async (query = '') =>
    ((await (await fixture.app.request(`/v1/tasks${query}`)).json()) as any).tasks.find(
      (task: any) => task.trace_id === taskId,
    );
  let sse: ReturnType<typeof sseReader>;

  it('step_count advances with each recorded step on REST (task and list) and the dashboard', async () => {
    // Steps 1 and 2 acted; step 3 is recorded and waits for the model: three steps so far.
    await until(async () => (await fixture.repository.listSteps(taskId)).length === 3);
    const body = await rest();
    assert.equal(body.task.status, 'running');
    assert.equal(body.task.step_count, 3);
    assert.equal(body.steps.length, 3);
    assert.equal((await listed()).step_count, 3);
    const cookie = await fixture.login();
    const detail = await (
      await fixture.app.request(`/dashboard/tasks/${taskId}`, { headers: { cookie } })
    ).text();
    assert.match(detail, /<dt>Steps<\/dt><dd>3 of at most 6<\/dd>/);
    const list = await (await fixture.app.request('/dashboard', { headers: { cookie } })).text();
    assert.match(list, /<td class="num" data-label="Steps">3\/6<\/td>/);
  });

  it('each SSE step event carries the step_count of the task row while the task runs', async () => {
    sse = sseReader(await fixture.app.request(`/v1/tasks/${taskId}/events`));
    const events = await sse.until((event) => event.event === 'step' && event.data.step === 2);
    assert.deepEqual(
      events
        .filter((event) => event.event === 'step')
        .map((event) => [event.data.step, event.data.step_count]),
      [
        [1, 1],
        [2, 2],
      ],
    );
    assert.equal((await rest()).task.status, 'running');
  });

  it('a paused task is `paused` on REST, SSE, the list filter and the dashboard, and `running` again on resume', async () => {
    assert.equal(await fixture.tasks.pause?.(taskId), true);
    assert.equal((await rest()).task.status, 'paused');
    assert.equal((await listed('?status=paused'))?.status, 'paused');
    await sse.until((event) => event.event === 'status' && event.data.status === 'paused');
    const cookie = await fixture.login();
    const list = await (
      await fixture.app.request('/dashboard?status=paused', { headers: { cookie } })
    ).text();
    assert.match(list, /badge s-paused/);
    // Step 3 ends; the loop then waits before step 4, and the task stays paused.
    release(2);
    await until(async () => (await fixture.repository.listSteps(taskId))[2]?.outcome === 'acted');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal((await fixture.repository.listSteps(taskId)).length, 3, 'no step while paused');
    assert.equal((await rest()).task.status, 'paused');

    assert.equal(await fixture.tasks.resume?.(taskId), true);
    assert.equal((await rest()).task.status, 'running');
    const pausedAt = sse.events.findIndex((event) => event.data.status === 'paused');
    await sse.until(
      (event) =>
        event.event === 'status' &&
        event.data.status === 'running' &&
        sse.events.indexOf(event) > pausedAt,
    );
    release(3);
    const result = await started.done;
    assert.equal(result.status, 'finished');
    assert.equal(result.step_count, 4);
    const final = await rest();
    assert.equal(final.task.status, 'finished');
    assert.equal(final.task.step_count, 4);
    await sse.until((event) => event.event === 'result');
  });

  it('documents `paused` in the OpenAPI status enum', async () => {
    const document = (await (await fixture.app.request('/openapi.json')).json()) as any;
    const status = document.paths['/v1/tasks'].get.parameters.find(
      (parameter: any) => parameter.name === 'status',
    );
    assert.ok(status.schema.enum.includes('paused'));
  });
});

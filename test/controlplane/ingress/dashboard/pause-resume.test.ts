import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { VisionModel } from '../../../../controlplane/src/agent/model/chat-types.js';
import { PauseGate } from '../../../../controlplane/src/tasks/pause-gate.js';
import { submit } from '../../../support/submit-task.js';
import { clickThenFinish, createDashboardFixture } from './dashboard-fixture.js';

/** Pauses the task from inside its first model call, so the pause lands before step 2. */
function pausingModel(pause: () => Promise<unknown> | undefined): VisionModel {
  return {
    name: 'pausing',
    isReplay: true,
    async complete(request) {
      const turn = request.messages.filter((message) => message.role === 'assistant').length;
      if (turn === 0) await pause();
      return { text: clickThenFinish[turn] ?? 'Action: wait()', requestBytes: 1, usage: null };
    },
  };
}

const until = async (check: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(await check(), 'condition not reached');
};

describe('pause and resume', () => {
  it('PauseGate blocks while paused, releases on resume and rejects on abort', async () => {
    const gate = new PauseGate();
    await gate.wait();
    gate.pause();
    let released = false;
    const waiting = gate.wait().then(() => {
      released = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(released, false);
    gate.resume();
    await waiting;
    assert.equal(released, true);
    gate.pause();
    const controller = new AbortController();
    const aborted = gate.wait(controller.signal);
    controller.abort();
    await assert.rejects(aborted, { name: 'AbortError' });
  });

  it('holds the loop before its next step until resumed from the dashboard', async () => {
    let taskId = '';
    const fixture = await createDashboardFixture({
      model: pausingModel(() => fixture.tasks.pause?.(taskId)),
    });
    after(() => fixture.close());
    const cookie = await fixture.login();
    const started = await submit(fixture.tasks, { instruction: 'pause me' });
    taskId = started.taskId;
    await until(async () => (await fixture.repository.listSteps(taskId))[0]?.outcome === 'acted');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await fixture.repository.listSteps(taskId)).length, 1, 'no step while paused');
    assert.equal(fixture.tasks.isPaused?.(taskId), true);
    const live = await (
      await fixture.app.request(`/dashboard/tasks/${taskId}/live`, { headers: { cookie } })
    ).text();
    assert.match(live, /badge s-paused/);
    assert.match(live, /action="\/dashboard\/tasks\/[^"]+\/resume"/);

    const resumed = await fixture.app.request(`/dashboard/tasks/${taskId}/resume`, {
      method: 'POST',
      headers: { cookie },
    });
    assert.equal(resumed.status, 303);
    const result = await started.done;
    assert.equal(result.status, 'finished');
    assert.equal(result.step_count, 3);
  });

  it('aborts a paused task', async () => {
    let taskId = '';
    const fixture = await createDashboardFixture({
      model: pausingModel(() => fixture.tasks.pause?.(taskId)),
    });
    after(() => fixture.close());
    const cookie = await fixture.login();
    const started = await submit(fixture.tasks, { instruction: 'pause then abort' });
    taskId = started.taskId;
    await until(() => fixture.tasks.isPaused?.(taskId) === true);
    const abort = await fixture.app.request(`/dashboard/tasks/${taskId}/abort`, {
      method: 'POST',
      headers: { cookie },
    });
    assert.equal(abort.status, 303);
    assert.equal((await started.done).status, 'aborted');
  });
});

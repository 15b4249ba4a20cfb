import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { VisionModel } from '../../../controlplane/src/agent/model/chat-types.js';
import { createAuditLog } from '../../../controlplane/src/governance/audit/audit-log.js';
import { createApp } from '../../../controlplane/src/ingress/http/app.js';
import { createAuditRepository } from '../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../controlplane/src/platform/store/database.js';
import { createTaskService } from '../../../controlplane/src/tasks/task-service.js';
import { createFakeOperator } from '../../support/fake-operator.js';
import { createManualClock } from '../../support/manual-clock.js';
import { silentLogger } from '../../support/silent-logger.js';
import { submit } from '../../support/submit-task.js';
import { createTestTaskDeps } from '../../support/test-task-deps.js';

const CLICK = "Thought: Click Save.\nAction: click(start_box='<|box_start|>(300,200)<|box_end|>')";

// A model that keeps clicking a failing button, 40 s of (manual) time per call: no visible
// progress, so the guard reports task-stuck once 100 s have passed (after step 3).
const clock = createManualClock();
const model: VisionModel = {
  name: 'scripted',
  isReplay: true,
  async complete() {
    clock.advance(40_000);
    return { text: CLICK, requestBytes: 1, usage: null };
  },
};
const { deps, repository, close } = createTestTaskDeps({
  model,
  operator: createFakeOperator({ failType: 'click' }).operator,
  loop: { maxSteps: 4, guard: { stuckAfterMs: 100_000 } },
});
const database = openDatabase(':memory:');
const audit = createAuditLog(createAuditRepository(database.db), clock);
after(() => {
  database.close();
  close();
});
const tasks = createTaskService({ ...deps, clock, audit });
const app = createApp({
  tasks,
  repository,
  logger: silentLogger,
  defaultMaxSteps: 4,
  describe: () => ({ model: { name: 'r', replay: true }, jail: { url: 'x' } }),
});

describe('task-stuck reaches supervisors', () => {
  it('appends a stuck event to the task stream (SSE) and audits it', async () => {
    const { taskId, done } = await submit(tasks, { instruction: 'Save the document' });
    const result = await done;
    assert.equal(result.status, 'max_steps');

    const stuck = tasks.events.since(taskId, 0).filter((entry) => entry.event.type === 'stuck');
    assert.equal(stuck.length, 1, 'one report per idle period');
    const event = stuck[0]?.event;
    assert.ok(event?.type === 'stuck');
    assert.equal(event.data.trace_id, taskId);
    assert.equal(event.data.step, 3);
    assert.match(event.data.summary, /Task: Save the document/);
    assert.match(event.data.summary, /Recent actions: click\(@15,10\)/);

    const response = await app.request(`/v1/tasks/${taskId}/events`);
    const names = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('event:'))
      .map((line) => line.slice('event:'.length).trim());
    assert.deepEqual(names, [
      'status',
      'status',
      'step',
      'step',
      'step',
      'stuck',
      'step',
      'result',
    ]);

    const rows = (await audit.list({ limit: 100 })).filter((row) => row.type === 'task-stuck');
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.taskId, taskId);
    assert.equal(rows[0]?.data.step, 3);
    assert.ok(Number(rows[0]?.data.idle_ms) >= 100_000);
    assert.match(String(rows[0]?.data.summary), /Task: Save the document/);
    assert.equal((await audit.verify()).ok, true);
  });
});

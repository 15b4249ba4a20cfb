import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  Notifier,
  SupervisorNotice,
} from '../../../../controlplane/src/governance/approvals/notifier.js';
import { submit } from '../../../support/submit-task.js';
import { createStuckFixture, eventually } from './stuck-fixture.js';

/** Records notices; approval calls are not expected here and fail loudly. */
function fakeNotifier(name: string, notify?: (notice: SupervisorNotice) => Promise<void>) {
  const notices: SupervisorNotice[] = [];
  const notifier: Notifier = {
    name,
    requestApproval: async () => assert.fail('no approval expected'),
    approvalClosed: async () => assert.fail('no approval expected'),
    ...(notify === undefined
      ? {}
      : {
          notify: async (notice: SupervisorNotice) => {
            notices.push(notice);
            await notify(notice);
          },
        }),
  };
  return { notifier, notices };
}

describe('stuck notices from the policed task service', () => {
  it('sends each stuck report once, with tenant, step, summary and the current screen', async (t) => {
    const fake = fakeNotifier('fake', async () => undefined);
    const fixture = createStuckFixture([fake.notifier]);
    t.after(fixture.close);

    const { taskId, done } = await submit(fixture.tasks, { instruction: 'Save the document' });
    assert.equal((await done).status, 'max_steps');
    await eventually(() => fake.notices.length > 0, 'the notice');
    await new Promise((resolve) => setTimeout(resolve, 50));

    assert.equal(fake.notices.length, 1, 'one notice per stuck event');
    const [notice] = fake.notices;
    assert.equal(notice?.kind, 'stuck');
    assert.equal(notice?.taskId, taskId);
    assert.equal(notice?.tenant, 'default');
    assert.equal(notice?.step, 3);
    assert.match(notice?.summary ?? '', /Task: Save the document/);
    assert.match(notice?.summary ?? '', /Recent actions: click\(@15,10\)/);
    assert.ok((notice?.screenshot?.length ?? 0) > 100, 'the current screen goes along');
    assert.deepEqual(await fixture.noticeFailures(), []);
  });

  it('stops listening when the task ends', async (t) => {
    const fake = fakeNotifier('fake', async () => undefined);
    const fixture = createStuckFixture([fake.notifier]);
    t.after(fixture.close);

    const { taskId, done } = await submit(fixture.tasks, { instruction: 'Save the document' });
    await done;
    await eventually(() => fake.notices.length === 1, 'the notice');
    fixture.tasks.events.append(taskId, {
      type: 'stuck',
      data: { trace_id: taskId, step: 9, summary: 'late' },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(fake.notices.length, 1);
  });

  it('audits a failing channel as notifier-failed, still reaches the others, and the task ends normally', async (t) => {
    const broken = fakeNotifier('broken', async () => {
      throw new Error('ECONNREFUSED 127.0.0.1:9');
    });
    const working = fakeNotifier('working', async () => undefined);
    const silent = fakeNotifier('approvals-only');
    const fixture = createStuckFixture([broken.notifier, working.notifier, silent.notifier]);
    t.after(fixture.close);

    const { taskId, done } = await submit(fixture.tasks, { instruction: 'Save the document' });
    const result = await done;
    assert.equal(result.status, 'max_steps');
    await eventually(async () => (await fixture.noticeFailures()).length > 0, 'notifier-failed');

    const failures = await fixture.noticeFailures();
    assert.equal(failures.length, 1);
    assert.equal(failures[0]?.taskId, taskId);
    assert.equal(failures[0]?.actor, 'system');
    assert.deepEqual(failures[0]?.data, {
      notifier: 'broken',
      what: 'notice',
      notice: 'stuck',
      error: 'ECONNREFUSED 127.0.0.1:9',
    });
    await eventually(() => working.notices.length === 1, 'the working channel');
    assert.equal((await fixture.audit.verify()).ok, true);
    const types = (await fixture.audit.list({ limit: 500 })).map((row) => row.type);
    assert.ok(types.includes('task-stuck') && types.includes('task-ended'));
  });
});

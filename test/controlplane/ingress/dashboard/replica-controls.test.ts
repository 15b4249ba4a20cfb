// The dashboard of one replica offers the loop controls of a task another replica runs, and sends
// them there (through ReplicaCommands) with the dashboard admin as the actor.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createStaticAdminVerifier } from '../../../../controlplane/src/ingress/dashboard/admin-auth.js';
import { createApp } from '../../../../controlplane/src/ingress/http/app.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { createTaskRepository } from '../../../../controlplane/src/platform/store/task-repository.js';
import type {
  ReplicaCommands,
  TaskCommand,
} from '../../../../controlplane/src/tasks/task-commands.js';
import { createUnavailableTaskService } from '../../../../controlplane/src/tasks/unavailable-task-service.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { ADMIN_TOKEN, logIn } from './dashboard-fixture.js';

describe('dashboard controls of a task another replica runs', () => {
  const database = openDatabase(':memory:');
  after(() => database.close());
  // The row as replica A wrote it; this app is replica B, which runs nothing itself.
  const repository = createTaskRepository(database.db, { owner: 'replica-a' });
  const sent: { taskId: string; command: TaskCommand; actor: string }[] = [];
  const replicas: ReplicaCommands = {
    self: 'replica-b',
    async send(task, command, actor) {
      sent.push({ taskId: task.id, command, actor });
      await repository.setLiveStatus(task.id, command === 'pause' ? 'paused' : 'running');
      return true;
    },
  };
  const app = createApp({
    tasks: createUnavailableTaskService(),
    replicas,
    repository,
    logger: silentLogger,
    defaultMaxSteps: 6,
    describe: () => ({ model: { name: 'none', replay: false }, jail: { url: 'http://x' } }),
    dashboard: { verifyAdmin: createStaticAdminVerifier(ADMIN_TOKEN) },
  });

  it('shows Abort and Pause/Resume from the row, and posts them to the owner replica', async () => {
    await repository.createTask({
      id: 'remote-1',
      instruction: 'runs on replica a',
      startUrl: null,
      maxSteps: 5,
      modelName: 'm',
      coordinateMode: '1.5',
      createdAt: Date.now(),
    });
    await repository.setLiveStatus('remote-1', 'running');
    const cookie = await logIn(app);
    const page = async (path: string) =>
      (await app.request(`/dashboard/tasks/remote-1${path}`, { headers: { cookie } })).text();
    const post = (command: string) =>
      app.request(`/dashboard/tasks/remote-1/${command}`, { method: 'POST', headers: { cookie } });

    assert.match(await page(''), /action="\/dashboard\/tasks\/remote-1\/abort"/);
    assert.match(await page('/live'), /action="\/dashboard\/tasks\/remote-1\/pause"/);
    assert.equal((await post('pause')).status, 303);
    assert.match(await page('/live'), /action="\/dashboard\/tasks\/remote-1\/resume"/);
    assert.equal((await post('resume')).status, 303);
    assert.equal((await post('abort')).status, 303);
    assert.deepEqual(sent, [
      { taskId: 'remote-1', command: 'pause', actor: 'dashboard:admin' },
      { taskId: 'remote-1', command: 'resume', actor: 'dashboard:admin' },
      { taskId: 'remote-1', command: 'abort', actor: 'dashboard:admin' },
    ]);
  });
});

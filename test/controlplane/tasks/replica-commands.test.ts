// The sender's side of task commands across replicas, on a real store and the in-process channel:
// an owner that never acts is a typed 503 within the bound, one that does not run the task answers
// at once, and without a shared channel nothing is forwarded (one process behaves as before).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { systemClock } from '../../../controlplane/src/clock.js';
import { createAuditLog } from '../../../controlplane/src/governance/audit/audit-log.js';
import { createLocalNotifyChannel } from '../../../controlplane/src/platform/notify/notify-channel.js';
import { createAuditRepository } from '../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../controlplane/src/platform/store/database.js';
import { createTaskRepository } from '../../../controlplane/src/platform/store/task-repository.js';
import {
  openReplicaCommands,
  TASK_COMMANDS_CHANNEL,
} from '../../../controlplane/src/tasks/replica-commands.js';
import { commandTask } from '../../../controlplane/src/tasks/task-commands.js';
import { createUnavailableTaskService } from '../../../controlplane/src/tasks/unavailable-task-service.js';
import { silentLogger } from '../../support/silent-logger.js';
import { sequentialIds } from '../../support/test-task-deps.js';

const OWNER = 'replica-a';
const BOUND_MS = 300;

describe('task commands: the sending replica', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'clawdie-replica-commands-'));
  const database = openDatabase(join(dir, 'store.db'));
  const channel = createLocalNotifyChannel();
  after(async () => {
    await channel.close();
    database.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const repository = createTaskRepository(database.db, { owner: OWNER });
  await repository.createTask({
    id: 'task-1',
    instruction: 'runs on replica a',
    startUrl: null,
    maxSteps: 5,
    modelName: 'm',
    coordinateMode: '1.5',
    createdAt: Date.now(),
  });
  const audit = createAuditLog(createAuditRepository(database.db), systemClock);
  const open = (self: string) =>
    openReplicaCommands({
      self,
      tasks: createUnavailableTaskService(),
      repository,
      notify: channel,
      liveInstances: async () => ['replica-b', OWNER],
      audit,
      clock: systemClock,
      logger: silentLogger,
      newId: sequentialIds(),
      timeoutMs: BOUND_MS,
      pollMs: 50,
    });
  const task = async () => {
    const found = await repository.getTask('task-1');
    assert.ok(found);
    return found;
  };

  it('gives REPLICA_UNAVAILABLE (503) within the bound when the owner never acts', async () => {
    const b = await open('replica-b');
    after(() => b.close());
    // Garbage on the channel is ignored by every replica.
    await channel.notify(TASK_COMMANDS_CHANNEL, 'not json');
    await channel.notify(TASK_COMMANDS_CHANNEL, JSON.stringify({ to: 'replica-b', op: 'rm' }));
    const started = performance.now();
    await assert.rejects(
      commandTask(
        { tasks: createUnavailableTaskService(), replicas: b },
        await task(),
        'abort',
        'tenant:ops/alice',
      ),
      {
        code: 'REPLICA_UNAVAILABLE',
        status: 503,
      },
    );
    const waited = performance.now() - started;
    assert.ok(waited >= BOUND_MS - 5 && waited < BOUND_MS + 700, `waited ${waited} ms`);
    const [row] = await audit.list({ limit: 1 });
    assert.equal(row?.type, 'task-command-forwarded');
    assert.equal(row?.actor, 'tenant:ops/alice');
  });

  it('answers false at once when the owner does not run the task', async () => {
    const owner = await open(OWNER);
    const b = await open('replica-b');
    after(async () => {
      await owner.close();
      await b.close();
    });
    const started = performance.now();
    const deps = { tasks: createUnavailableTaskService(), replicas: b };
    assert.equal(await commandTask(deps, await task(), 'pause', 'tenant:ops/alice'), false);
    assert.ok(performance.now() - started < BOUND_MS / 2);
  });

  it('forwards nothing without replicas: a task run elsewhere is not active here', async () => {
    const tasks = createUnavailableTaskService();
    assert.equal(await commandTask({ tasks }, await task(), 'abort', 'tenant:ops/alice'), false);
  });
});

// Child process for test/security/owner-data-dir.test.ts: a controlplane client (`kind` from
// argv, default cli) that registers on the database file given in argv, records a running task
// with two steps, prints `{"taskId","instance","pid"}` on one stdout line, and stays alive
// (heartbeat running) until killed.
import { claimDataDirAt } from '../../../controlplane/src/platform/ownership/data-dir-owner.js';
import { openDatabase } from '../../../controlplane/src/platform/store/database.js';
import type { InstanceKind } from '../../../controlplane/src/platform/store/instance-repository.js';
import { createTaskRepository } from '../../../controlplane/src/platform/store/task-repository.js';
import { silentLogger } from '../../support/silent-logger.js';

const [databasePath, kind = 'cli'] = process.argv.slice(2);
if (!databasePath) throw new Error('usage: owner-child.ts <database> [kind]');
const owner = await claimDataDirAt(databasePath, {
  kind: kind as InstanceKind,
  dataDir: databasePath,
  logger: silentLogger,
  heartbeatMs: 200,
});
const database = openDatabase(databasePath);
const repository = createTaskRepository(database.db, { owner: owner.id });
const taskId = `child-task-${process.pid}`;
await repository.createTask({
  id: taskId,
  instruction: 'a task of a process that will be killed',
  startUrl: null,
  maxSteps: 8,
  modelName: 'child',
  coordinateMode: '1.5',
  createdAt: Date.now(),
});
await repository.markStarted(taskId, Date.now());
await repository.insertStep(taskId, 1, Date.now());
await repository.insertStep(taskId, 2, Date.now());
process.stdout.write(`${JSON.stringify({ taskId, instance: owner.id, pid: process.pid })}\n`);
setInterval(() => undefined, 60_000);

// The controlplane's REST app over a replay model and the test task deps, for the input-bound
// reproductions: they submit through the real routes and read back over them.
import { after } from 'node:test';
import { createApp } from '../../../controlplane/src/http/app.js';
import { createReplayModel } from '../../../controlplane/src/model/replay-model.js';
import { createTaskService } from '../../../controlplane/src/tasks/task-service.js';
import { silentLogger } from '../../support/silent-logger.js';
import { createTestTaskDeps } from '../../support/test-task-deps.js';

/** Builds the app for this test file (closed after it) with `replies` as the model's answers. */
export function replayTaskApi(replies: string[]) {
  const { deps, close } = createTestTaskDeps({ model: createReplayModel(replies) });
  after(close);
  const tasks = createTaskService(deps);
  const app = createApp({
    tasks,
    repository: deps.repository,
    logger: silentLogger,
    defaultMaxSteps: 5,
    describe: () => ({
      model: { name: 'replay', replay: true },
      jail: { url: 'http://127.0.0.1:1' },
    }),
  });
  return { app, tasks, deps };
}

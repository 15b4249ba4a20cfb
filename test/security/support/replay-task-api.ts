// The controlplane (the composition root, a replay model, the fake operator) for the input-bound
// reproductions: they submit through the real routes and read back over them.
import { after } from 'node:test';
import { createReplayModel } from '../../../controlplane/src/agent/model/replay-model.js';
import { createTestControlplane } from '../../support/controlplane.js';

/** Builds the controlplane for this test file (closed after it) with `replies` as the model's answers. */
export async function replayTaskApi(replies: string[]) {
  const controlplane = await createTestControlplane({
    model: createReplayModel(replies),
    env: { CLAWDIE_MAX_STEPS: '5' },
  });
  after(controlplane.close);
  return { app: controlplane.app, tasks: controlplane.tasks };
}

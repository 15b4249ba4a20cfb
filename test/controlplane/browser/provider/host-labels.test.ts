// `host_labels` (a task asking for a jail host's OS or region) is honoured only by a fleet: any
// other provider ends the task OPERATOR_UNAVAILABLE rather than run it on a host it did not ask for.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSingleBrowserProvider } from '../../../../controlplane/src/browser/provider/browser-provider.js';
import { browserRunTaskInputSchema } from '../../../../controlplane/src/tasks/task-input.js';
import { createTaskService } from '../../../../controlplane/src/tasks/task-service.js';
import { createFakeOperator } from '../../../support/fake-operator.js';
import { createPerTaskScriptModel } from '../../../support/per-task-script-model.js';
import { submit } from '../../../support/submit-task.js';
import { createTestTaskDeps } from '../../../support/test-task-deps.js';

describe('host labels without a fleet', () => {
  it('end the task OPERATOR_UNAVAILABLE; the one local browser is never driven', async () => {
    const { deps, close } = createTestTaskDeps({
      model: createPerTaskScriptModel(["Action: finished(content='done')"]),
    });
    const fake = createFakeOperator();
    const tasks = createTaskService(deps, undefined, createSingleBrowserProvider(fake.operator));
    try {
      const result = await (
        await submit(tasks, { instruction: 'x', host_labels: { os: 'freebsd' } })
      ).done;
      assert.equal(result.error?.code, 'OPERATOR_UNAVAILABLE');
      assert.match(
        result.error?.message ?? '',
        /labelled os=freebsd, but host labels need a fleet/,
      );
      assert.equal(fake.calls(), 0, 'the one local browser was never driven');
    } finally {
      close();
    }
  });

  it('are checked at the door: names and values like os=freebsd, at most 8', () => {
    const parse = (host_labels: unknown) =>
      browserRunTaskInputSchema.safeParse({ instruction: 'x', host_labels });
    assert.equal(parse({ os: 'freebsd', region: 'eu-west' }).success, true);
    assert.equal(parse({ 'OS!': 'x' }).success, false);
    assert.equal(parse({ os: 'free bsd' }).success, false);
    const nine = Object.fromEntries(Array.from({ length: 9 }, (_, n) => [`k${n}`, 'v']));
    assert.equal(parse(nine).success, false);
  });
});

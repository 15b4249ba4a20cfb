import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { demoTask } from '../../controlplane/src/platform/demo/demo-site-server.js';
import { requires } from '../support/capabilities.js';
import { alive, descendants } from '../support/process-tree.js';
import { runTestTask } from '../support/submit-task.js';
import { type E2eHarness, startE2eHarness } from './e2e-harness.js';

describe('e2e: the jail-service dies mid-task', requires('chromium'), () => {
  let h: E2eHarness;
  before(async () => {
    h = await startE2eHarness();
  });
  after(async () => {
    await h?.close();
  });

  it('ends OPERATOR_UNAVAILABLE quickly, keeps the trace, and leaves no process behind', async () => {
    h.model.setMode('normal');
    let killed = false;
    let browserPids: number[] = [];
    const started = Date.now();
    const result = await runTestTask(
      { instruction: demoTask.instruction, start_url: `${h.siteUrl}/` },
      h.deps(),
      {
        onEvent: (event) => {
          if (event.type === 'step-ended' && event.step === 2 && !killed) {
            killed = true;
            browserPids = descendants(h.jail.process.pid);
            process.kill(h.jail.process.pid, 'SIGKILL');
          }
        },
      },
    );
    assert.equal(killed, true);
    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'OPERATOR_UNAVAILABLE');
    assert.equal(result.step_count, 3);
    assert.ok(Date.now() - started < 30_000);
    const task = await h.repository.getTask(result.trace_id);
    assert.equal(task?.status, 'error');
    assert.equal((await h.repository.listSteps(result.trace_id)).length, 3);
    const code = await h.jail.process.exited;
    assert.equal(code, null, 'killed by a signal');
    // Chromium notices its parent's death (the CDP pipe closes) and exits: no orphan browser.
    assert.ok(browserPids.length > 0, 'the jail-service had a browser');
    for (let i = 0; i < 50 && alive(browserPids).length > 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(alive(browserPids), []);
  });
});

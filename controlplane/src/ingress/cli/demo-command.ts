import { fileURLToPath } from 'node:url';
import type { LoopEvent } from '../../agent/loop/loop-types.js';
import { loadReplayModel } from '../../agent/model/replay-model.js';
import type { CreateTasks } from '../../composition/task-pipeline.js';
import { loopbackPrincipal } from '../../governance/auth/scopes.js';
import {
  demoTask,
  type RunningDemoSite,
  startDemoSite,
} from '../../platform/demo/demo-site-server.js';
import type { CompactResult } from '../../tasks/task-input.js';

/** Recorded UI-TARS-1.5 replies for the demo task at a 1280×800 viewport, DPR 1. */
export const demoReplayFile = fileURLToPath(
  new URL('../../../demo-site/demo-replay.json', import.meta.url),
);

export const demoBanner =
  'REPLAY DEMO: the model replies are recorded UI-TARS-1.5 output, not a live model. ' +
  'The browser, the clicks and the page are real.';

/**
 * Runs the canonical demo task against the bundled demo shop with the replay model, on a task
 * service from `createTasks` (the controlplane's browsers). Needs the jail-service at its default viewport (1280×800, DPR 1). The task's
 * domains name exactly the shop's host:port. A hostd clone reaches the shop (on the host's
 * loopback) only when hostd's CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL names that address:port: pass
 * `site` started beforehand (as `npm start` does for its embedded hostd); otherwise a fresh shop is
 * started and closed here.
 */
export async function runDemo(
  createTasks: CreateTasks,
  options: {
    signal?: AbortSignal;
    onEvent?: (event: LoopEvent) => void;
    site?: RunningDemoSite;
  } = {},
): Promise<{ result: CompactResult; expected: string }> {
  const site = options.site ?? (await startDemoSite());
  try {
    const model = await loadReplayModel(demoReplayFile);
    // Through a task service, so the demo runs in a hostd clone when hostd is configured (the
    // clone reaches the demo shop on the host's loopback through its egress proxy, by the
    // admin exception for exactly this address:port).
    const tasks = createTasks(model, { policed: false });
    try {
      const input = {
        instruction: demoTask.instruction,
        start_url: `${site.url}/`,
        domains: [new URL(site.url).host],
        max_steps: 15,
      };
      // `policed: false`: an allow-all plan (unpolicedGate); the task's domains still hold.
      const { taskId, done } = await tasks.start(
        await tasks.admit(input, loopbackPrincipal),
        options.onEvent,
      );
      const abort = () => tasks.abort(taskId);
      options.signal?.addEventListener('abort', abort, { once: true });
      if (options.signal?.aborted) abort();
      const result = await done.finally(() => options.signal?.removeEventListener('abort', abort));
      return { result, expected: demoTask.expectedValue };
    } finally {
      await tasks.close();
    }
  } finally {
    if (!options.site) await site.close();
  }
}

// The outage scenario of bench/model-client.ts (issue 22): eight concurrent agent loops (fake
// browser, real model client with the production defaults, a fake OpenAI-compatible server on
// loopback) while the server answers 429 `Retry-After: 1` to 30 % of calls (seeded) and drops
// every connection for 2 s. Counts tasks finished, errors, extra calls and the retries reported.
import { runAgentLoop } from '../controlplane/src/agent/loop/loop.js';
import type { LoopResult } from '../controlplane/src/agent/loop/loop-types.js';
import type { ModelRetryReason } from '../controlplane/src/agent/model/chat-types.js';
import { createConfiguredModel } from '../controlplane/src/agent/model/configured-model.js';
import { loadConfig } from '../controlplane/src/config.js';
import { unpolicedGate } from '../controlplane/src/governance/policy/unpoliced-gate.js';
import { createRandom } from '../test/security/support/fuzz-values.js';
import { createFakeOperator } from '../test/support/fake-operator.js';
import {
  startFaultyChatServer,
  tooManyRequests,
  UITARS_SCRIPT,
} from '../test/support/faulty-chat-server.js';
import { createManualClock } from '../test/support/manual-clock.js';
import { testImages } from '../test/support/test-images.js';
import { testLoopOptions } from '../test/support/test-task-deps.js';

export interface OutageScenario {
  tasks: number;
  /** Steps per task: clicks, then finished(). */
  steps: number;
  rateLimitedShare: number;
  outage: { startMs: number; durationMs: number };
  /** Time the fake model takes per reply. */
  replyMs: number;
  /** Seeds the PRNG (mulberry32) that picks the 429s, so each round is reproducible. */
  seed: number;
}

export async function runOutageScenario(scenario: OutageScenario) {
  const [click, finished] = UITARS_SCRIPT as [string, string];
  const script = [...Array.from({ length: scenario.steps - 1 }, () => click), finished];
  const random = createRandom(scenario.seed);
  let startedAt = 0;
  const server = await startFaultyChatServer({
    script,
    delayMs: scenario.replyMs,
    fault: () => {
      const at = performance.now() - startedAt;
      const { startMs, durationMs } = scenario.outage;
      if (at >= startMs && at < startMs + durationMs) return { kind: 'drop' };
      return random.chance(scenario.rateLimitedShare) ? tooManyRequests('1') : null;
    },
  });
  try {
    // The production client as `npm start` builds it: every CLAWDIE_MODEL_* default.
    const config = loadConfig({ CLAWDIE_MODEL_URL: server.baseUrl });
    const model = await createConfiguredModel(config);
    if (!model) throw new Error('no model configured');
    const reasons: Partial<Record<ModelRetryReason, number>> = {};
    const retriesPerTask: number[] = [];
    startedAt = performance.now();
    const results: LoopResult[] = await Promise.all(
      Array.from({ length: scenario.tasks }, async (_, task) => {
        retriesPerTask[task] = 0;
        return runAgentLoop(
          {
            instruction: `Order lamp number ${task}`,
            ...testLoopOptions({ maxSteps: scenario.steps + 5 }),
            modelRetryBudget: config.model.taskRetries,
          },
          {
            model,
            operator: createFakeOperator().operator,
            clock: createManualClock(),
            images: testImages,
            gate: unpolicedGate(undefined),
            emit: (event) => {
              if (event.type !== 'model-retried') return;
              reasons[event.reason] = (reasons[event.reason] ?? 0) + 1;
              retriesPerTask[task] = (retriesPerTask[task] ?? 0) + 1;
            },
          },
        );
      }),
    );
    const wallMs = Math.round(performance.now() - startedAt);
    const usefulCalls = results.reduce((sum, result) => sum + result.stepCount, 0);
    const reported = retriesPerTask.reduce((sum, n) => sum + n, 0);
    return {
      tasks: results.length,
      finished: results.filter((result) => result.status === 'finished').length,
      errors: results.filter((result) => result.status === 'error').map((r) => r.error?.code),
      calls: server.requests.length,
      useful_calls: usefulCalls,
      extra_calls: server.requests.length - usefulCalls,
      retries_reported: reported,
      retries_by_reason: reasons,
      max_retries_one_task: Math.max(...retriesPerTask),
      task_retry_budget: config.model.taskRetries,
      per_call_retries: config.model.retries,
      peak_in_flight: server.inFlight.peak,
      concurrency: config.model.concurrency,
      wall_ms: wallMs,
    };
  } finally {
    await server.close();
  }
}

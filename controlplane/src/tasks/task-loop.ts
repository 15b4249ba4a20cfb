// The agent loop of one task run, with the ports the run built: the task's model and profile,
// its operator (the lease wrapped by the guard and the smart wait), the policy gate, the takeover hand-off, the verifier of `finished`, and
// the downloads and uploads that follow each step.
import type { LoopHandoff } from '../agent/loop/handoff-types.js';
import { runAgentLoop } from '../agent/loop/loop.js';
import type { LoopEvent, LoopResult } from '../agent/loop/loop-types.js';
import { operatorVerifier } from '../agent/loop/verify-done.js';
import type { ModelServer } from '../agent/model/model-server.js';
import type { ModelProfile } from '../agent/profiles/profile-types.js';
import type { BrowserLease } from '../browser/provider/browser-provider.js';
import { operatorFrames } from '../browser/wait/jail-page-probe.js';
import { visualCheck } from '../browser/wait/visual-check.js';
import type { WaitEngine } from '../browser/wait/wait-engine.js';
import type { TaskGuard } from '../governance/policy/task-guards.js';
import type { TaskRunDeps } from './task-deps.js';
import type { TaskDownloads } from './task-downloads.js';
import type { BrowserRunTaskInput } from './task-input.js';
import type { taskModel } from './task-model.js';
import { taskOperator } from './task-operator.js';
import { type startTask, taskLoopOptions } from './task-start.js';
import type { TaskUploads } from './task-uploads.js';

type Started = Exclude<Awaited<ReturnType<typeof startTask>>, { ended: LoopResult }>;

export interface TaskLoopRun {
  deps: TaskRunDeps;
  input: BrowserRunTaskInput;
  profile: ModelProfile;
  model: ReturnType<typeof taskModel>['model'];
  /** What the task's model server was identified as (task-model.ts `taskModelServer`). */
  modelServer: ModelServer;
  maxSteps: number;
  start: Started;
  /** The task's browser: the loop drives it through the guard (and the smart wait, if on). */
  lease: BrowserLease;
  guard: TaskGuard;
  waits: WaitEngine;
  signal: AbortSignal;
  handoff: LoopHandoff | undefined;
  waitWhilePaused: (signal?: AbortSignal) => Promise<void>;
  publish: (event: LoopEvent) => Promise<void>;
  downloads: TaskDownloads | null;
  uploads: TaskUploads | null;
}

export function runTaskLoop(run: TaskLoopRun): Promise<LoopResult> {
  const { deps, input, signal, downloads, uploads, waits } = run;
  const operator = taskOperator(run.lease, run.guard, waits, {
    desktop: input.surface === 'desktop',
    smartWait: deps.loop.smartWait === true,
    desktopOperator: deps.desktopOperator,
  });
  const screen = operatorFrames(operator, 'task-screen');
  return runAgentLoop(
    {
      ...deps.loop,
      ...taskLoopOptions(input),
      profile: run.profile,
      modelServer: run.modelServer,
      maxSteps: run.maxSteps,
      ...run.start,
    },
    {
      model: run.model,
      operator,
      clock: deps.clock,
      images: deps.images,
      signal,
      gate: run.guard.gate,
      waitWhilePaused: run.waitWhilePaused,
      ...(run.handoff ? { handoff: run.handoff } : {}),
      verifier: deps.verifier ?? operatorVerifier({ operator }, visualCheck(waits, screen)),
      emit: async (event) => {
        await run.publish(event);
        if (event.type !== 'step-ended') return;
        await downloads?.afterStep(event.step);
        await uploads?.afterStep(event.step, signal);
      },
      ...(downloads || uploads
        ? { notes: () => [...(downloads?.notes() ?? []), ...(uploads?.notes() ?? [])] }
        : {}),
    },
  );
}

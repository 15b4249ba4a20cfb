// What a task run drives, reads and records: the operator the loop drives, wrapped once, the page
// probe of its logged_in_check, and its video recording.
import type { Logger } from 'pino';
import type { BrowserOperator } from '../browser/operator/browser-operator.js';
import type { BrowserLease } from '../browser/provider/browser-provider.js';
import type { TaskRecorder } from '../browser/recording/task-recorder.js';
import { createJailPageProbe } from '../browser/wait/jail-page-probe.js';
import { withSmartWait } from '../browser/wait/smart-wait-operator.js';
import type { WaitEngine } from '../browser/wait/wait-engine.js';
import type { TaskGuard } from '../governance/policy/task-guards.js';
import { createDesktopTaskOperator } from './desktop-task-operator.js';
import type { TaskRunDeps } from './task-deps.js';

export interface OperatorChoice {
  /** A desktop task (`surface: 'desktop'`) drives the lease's whole display, when it has one. */
  desktop: boolean;
  smartWait: boolean;
  desktopOperator: TaskRunDeps['desktopOperator'];
}

/**
 * The operator the loop drives, wrapped once and in this order: the lease's browser (or its whole
 * display for a desktop task), then the guard (secret placeholders refused, or filled after an
 * approval), then the smart wait (a lone `wait` watches the screen instead of sleeping).
 */
export function taskOperator(
  lease: BrowserLease,
  guard: TaskGuard,
  waits: WaitEngine,
  choice: OperatorChoice,
): BrowserOperator {
  const surface =
    choice.desktop && lease.display
      ? createDesktopTaskOperator(choice.desktopOperator(lease), lease.operator)
      : lease.operator;
  const guarded = guard.wrapOperator(surface);
  if (!choice.smartWait) return guarded;
  return withSmartWait(guarded, waits, { key: 'task-screen' });
}

/** Where `logged_in_check` reads the page: the clone's jail-service, else the browser's state. */
export function taskProbe(lease: BrowserLease) {
  if (lease.service) return createJailPageProbe(lease.service);
  return { state: (signal?: AbortSignal) => lease.operator.state(signal) };
}

/** A `record: true` task's recording, or none (warned) where recording is unavailable. */
export function startRecording(
  recorder: TaskRecorder | undefined,
  taskId: string,
  logger: Logger,
): ReturnType<TaskRecorder['start']> | undefined {
  if (recorder) return recorder.start(taskId);
  logger.warn(
    'task asked to be recorded, but recording is unavailable (no ffmpeg at /usr/bin/ffmpeg); running it without a recording',
  );
  return undefined;
}

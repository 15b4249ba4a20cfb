import type { Logger } from 'pino';
import type { LoopEvent } from '../agent/loop/loop-types.js';
import type { CallUsage } from '../agent/model/call-usage.js';
import type { VisualJudge } from '../browser/wait/wait-types.js';
import type { Clock } from '../clock.js';
import type { ModelPrices } from '../config-prices.js';
import type { ScreenshotFiles } from '../platform/store/screenshot-files.js';
import type { TaskRepository } from '../platform/store/task-repository.js';
import type { SerialWrites } from './serial-writes.js';
import { createUsageMeter, meteredJudge, type TaskUsage } from './task-usage.js';

export interface TraceRecorder {
  /**
   * A run recorder (run-stream.ts): a promise while the event's rows (and screenshot file) are
   * written, none for an event it does not keep. Never rejects.
   */
  record(event: LoopEvent): Promise<void> | undefined;
  /** Path of the last frame written (the final screenshot when one was taken). */
  lastScreenshotPath(): string | null;
  /** The task's model usage totals so far (null before the first call). */
  usage(): TaskUsage | null;
  /** The process's judge as this task uses it: each verdict's call counts in `usage()`. */
  judge(judge: VisualJudge | undefined): VisualJudge | undefined;
}

/**
 * Writes loop events into the task trace: one step row per iteration, its screenshot file, the
 * model's raw reply and usage, the executed actions, log rows, the live status of the row
 * (`status-changed`, written before any later reader sees the event), and the task's usage totals
 * (priced by `prices`, CLAWDIE_MODEL_PRICES). Every row goes through the task's `writes` queue, so
 * the rows are written in the order of the events. Storage errors are logged, never thrown, so a
 * full disk cannot kill a running task (the loop contract: emit must not throw).
 */
export function createTraceRecorder(
  taskId: string,
  deps: {
    repository: TaskRepository;
    writes: SerialWrites;
    screenshots: ScreenshotFiles;
    clock: Clock;
    logger: Logger;
    prices?: ModelPrices | undefined;
  },
): TraceRecorder {
  const { repository, writes, screenshots, clock, logger } = deps;
  const meter = createUsageMeter(deps.prices ?? {});
  const write = (row: () => Promise<unknown>) => writes.run(row).then(() => undefined);
  const count = (call: CallUsage, role: 'model' | 'judge') => {
    const usage = meter.add(call, role);
    return writes.queue(() => repository.setUsage(taskId, usage), 'usage write failed');
  };
  /** The step row ids, set as each step's row is written (a later write reads it then). */
  const stepIds = new Map<number, number>();
  let lastPath: string | null = null;
  const stepId = (step: number) => stepIds.get(step) ?? null;
  const log = (
    step: number | null,
    level: 'info' | 'warn',
    event: string,
    message: string,
    data?: unknown,
  ) => {
    const at = clock.now();
    return write(() =>
      repository.appendLog({
        taskId,
        stepId: step === null ? null : stepId(step),
        at,
        level,
        event,
        message,
        data: data ?? null,
      }),
    );
  };

  /** The event's writes, in order; undefined when it keeps nothing. */
  function handle(event: LoopEvent): Promise<void> | undefined {
    switch (event.type) {
      case 'status-changed':
        return write(() => repository.setLiveStatus(taskId, event.status));
      case 'step-started':
        return write(async () => {
          stepIds.set(event.step, await repository.insertStep(taskId, event.step, event.at));
        });
      case 'screenshot-taken':
        return saveStepScreenshot(event);
      case 'prediction-received':
        void count(event.usage, 'model');
        return update(event.step, {
          rawPrediction: event.text,
          thought: event.thought,
          reflection: event.reflection,
          modelMs: event.modelMs,
          modelRequestBytes: event.requestBytes,
          modelUsage: event.usage,
        });
      case 'actions-executed':
        return recordActions(event);
      case 'step-ended': {
        const ended = update(event.step, {
          outcome: event.outcome,
          outcomeMessage: event.message,
          endedAt: event.at,
        });
        if (!event.message) return ended;
        return both(ended, log(event.step, 'warn', `step-${event.outcome}`, event.message));
      }
      case 'model-retried': {
        const { attempt, reason, delayMs, status, message } = event;
        const text = `model call retry ${attempt} (${reason}) in ${delayMs} ms: ${message}`;
        return log(event.step, 'warn', 'model-retry', text, {
          attempt,
          reason,
          delay_ms: delayMs,
          status,
        });
      }
      case 'final-screenshot-taken':
        return screenshots.save(taskId, 'final', event.screenshot.jpeg).then((path) => {
          lastPath = path;
        });
    }
    return undefined;
  }

  async function saveStepScreenshot(event: Extract<LoopEvent, { type: 'screenshot-taken' }>) {
    const path = await screenshots.save(taskId, `step-${pad(event.step)}`, event.screenshot.jpeg);
    lastPath = path;
    const { meta } = event.screenshot;
    await update(event.step, {
      screenshotPath: path,
      imageWidth: meta.imageWidth,
      imageHeight: meta.imageHeight,
      devicePixelRatio: meta.devicePixelRatio,
      captureMs: event.captureMs,
    });
  }

  /** The step's row updated, once its row is written (a step without a row is skipped). */
  function update(step: number, patch: Parameters<TaskRepository['updateStep']>[1]) {
    return write(async () => {
      const id = stepId(step);
      if (id !== null) await repository.updateStep(id, patch);
    });
  }

  function recordActions(event: Extract<LoopEvent, { type: 'actions-executed' }>) {
    const inserted = write(async () => {
      const id = stepId(event.step);
      if (id !== null) await repository.insertActions(actionRows(id, event));
    });
    const updated = update(event.step, {
      executeMs: event.executeMs,
      ...(event.network ? { network: event.network } : {}),
    });
    return both(inserted, updated);
  }

  function actionRows(id: number, event: Extract<LoopEvent, { type: 'actions-executed' }>) {
    return event.executed.map(({ planned, result }, index) => {
      const css = 'x' in planned.action ? { x: planned.action.x, y: planned.action.y } : null;
      return {
        stepId: id,
        taskId,
        index,
        type: planned.action.type,
        modelAction: planned.modelAction,
        action: planned.action,
        screenX: planned.screenPoint?.x ?? null,
        screenY: planned.screenPoint?.y ?? null,
        cssX: css?.x ?? null,
        cssY: css?.y ?? null,
        status: result.status,
        errorCode: result.error?.code ?? null,
        errorMessage: result.error?.message ?? null,
        durationMs: result.duration_ms,
        navigated: result.navigated,
      };
    });
  }

  const failed = (event: LoopEvent) => (error: unknown) =>
    logger.error({ err: error, taskId, event: event.type }, 'trace write failed');
  return {
    record(event) {
      try {
        return handle(event)?.catch(failed(event));
      } catch (error) {
        failed(event)(error);
        return undefined;
      }
    },
    lastScreenshotPath: () => lastPath,
    usage: () => meter.totals(),
    judge: (judge) =>
      meteredJudge(judge, (call) => {
        void count(call, 'judge');
      }),
  };
}

const pad = (n: number) => String(n).padStart(3, '0');

/** Two writes of one event: settled when both are (a failure of either rejects, handled once). */
const both = (first: Promise<void>, second: Promise<void>) =>
  Promise.all([first, second]).then(() => undefined);

import type { Logger } from 'pino';
import type { LoopEvent } from '../agent/loop/loop-types.js';
import type { CallUsage } from '../agent/model/call-usage.js';
import type { VisualJudge } from '../browser/wait/wait-types.js';
import type { Clock } from '../clock.js';
import type { ModelPrices } from '../config-prices.js';
import type { ScreenshotFiles } from '../platform/store/screenshot-files.js';
import type { TaskRepository } from '../platform/store/task-repository.js';
import { createUsageMeter, meteredJudge, type TaskUsage } from './task-usage.js';

export interface TraceRecorder {
  /** A run recorder (run-stream.ts): a promise only while a screenshot file is written. */
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
 * model's raw reply and usage, the executed actions, log rows (the run's own events pass by), and
 * the task's usage totals (priced by `prices`, CLAWDIE_MODEL_PRICES). Storage
 * errors are logged, never thrown, so a full disk cannot kill a running task (the loop contract:
 * emit must not throw).
 */
export function createTraceRecorder(
  taskId: string,
  deps: {
    repository: TaskRepository;
    screenshots: ScreenshotFiles;
    clock: Clock;
    logger: Logger;
    prices?: ModelPrices | undefined;
  },
): TraceRecorder {
  const { repository, screenshots, clock, logger } = deps;
  const meter = createUsageMeter(deps.prices ?? {});
  const count = (call: CallUsage, role: 'model' | 'judge') => {
    try {
      repository.setUsage(taskId, meter.add(call, role));
    } catch (error) {
      logger.error({ err: error, taskId }, 'usage write failed');
    }
  };
  const stepIds = new Map<number, number>();
  let lastPath: string | null = null;
  const stepId = (step: number) => stepIds.get(step) ?? null;
  const log = (
    step: number | null,
    level: 'info' | 'warn',
    event: string,
    message: string,
    data?: unknown,
  ) =>
    repository.appendLog({
      taskId,
      stepId: step === null ? null : stepId(step),
      at: clock.now(),
      level,
      event,
      message,
      data: data ?? null,
    });

  /** SQLite writes are synchronous; only the screenshot files are awaited. */
  function handle(event: LoopEvent): Promise<void> | undefined {
    switch (event.type) {
      case 'step-started':
        stepIds.set(event.step, repository.insertStep(taskId, event.step, event.at));
        return;
      case 'screenshot-taken':
        return saveStepScreenshot(event);
      case 'prediction-received':
        update(event.step, {
          rawPrediction: event.text,
          thought: event.thought,
          reflection: event.reflection,
          modelMs: event.modelMs,
          modelRequestBytes: event.requestBytes,
          modelUsage: event.usage,
        });
        count(event.usage, 'model');
        return;
      case 'actions-executed':
        recordActions(event);
        return;
      case 'step-ended':
        update(event.step, {
          outcome: event.outcome,
          outcomeMessage: event.message,
          endedAt: event.at,
        });
        if (event.message) log(event.step, 'warn', `step-${event.outcome}`, event.message);
        return;
      case 'model-retried': {
        const { attempt, reason, delayMs, status, message } = event;
        const text = `model call retry ${attempt} (${reason}) in ${delayMs} ms: ${message}`;
        log(event.step, 'warn', 'model-retry', text, {
          attempt,
          reason,
          delay_ms: delayMs,
          status,
        });
        return;
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
    update(event.step, {
      screenshotPath: path,
      imageWidth: meta.imageWidth,
      imageHeight: meta.imageHeight,
      devicePixelRatio: meta.devicePixelRatio,
      captureMs: event.captureMs,
    });
  }

  function update(step: number, patch: Parameters<TaskRepository['updateStep']>[1]): void {
    const id = stepId(step);
    if (id !== null) repository.updateStep(id, patch);
  }

  function recordActions(event: Extract<LoopEvent, { type: 'actions-executed' }>): void {
    const id = stepId(event.step);
    if (id === null) return;
    repository.insertActions(
      event.executed.map(({ planned, result }, index) => {
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
      }),
    );
    update(event.step, {
      executeMs: event.executeMs,
      ...(event.network ? { network: event.network } : {}),
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
    judge: (judge) => meteredJudge(judge, (call) => count(call, 'judge')),
  };
}

const pad = (n: number) => String(n).padStart(3, '0');

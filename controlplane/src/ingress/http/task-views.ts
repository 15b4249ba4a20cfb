import { type NetworkEvidence, networkEvidenceSchema } from '@clawdie/kit/jail-api';
import type { CallUsage } from '../../agent/model/call-usage.js';
import { profileNamed } from '../../agent/profiles/index.js';
import { PROFILE_NAMES } from '../../agent/profiles/profile-types.js';
import type {
  ActionRecord,
  LogRecord,
  StepRecord,
  TaskRecord,
} from '../../platform/store/task-records.js';
import { terminalStatuses } from '../../platform/store/task-records.js';
import type { CompactResult } from '../../tasks/task-input.js';
import { taskVerificationSchema } from '../../tasks/verification-schema.js';
import type {
  ActionView,
  LogView,
  StepUsageView,
  StepView,
  TaskView,
} from './task-view-schemas.js';

/** The compact result of an ended task, rebuilt from its row. */
export function compactResultOf(task: TaskRecord): CompactResult | null {
  if (!terminalStatuses.includes(task.status)) return null;
  return {
    status: task.status as CompactResult['status'],
    summary: task.summary,
    result_data: task.resultData,
    trace_id: task.id,
    step_count: task.stepCount,
    final_screenshot_path: task.finalScreenshotPath,
    ...(task.errorCode
      ? { error: { code: task.errorCode, message: task.errorMessage ?? '' } }
      : {}),
    ...(task.usage ? { usage: task.usage } : {}),
    ...verificationOf(task.verification),
  };
}

/** The stored verification, when the row holds one that parses. */
function verificationOf(stored: unknown): Pick<CompactResult, 'verification'> {
  const parsed = taskVerificationSchema.safeParse(stored);
  return parsed.success ? { verification: parsed.data } : {};
}

export function taskView(task: TaskRecord): TaskView {
  return {
    trace_id: task.id,
    instruction: task.instruction,
    start_url: task.startUrl,
    status: task.status,
    step_count: task.stepCount,
    max_steps: task.maxSteps,
    model: task.modelName,
    coordinate_mode: coordinateModeOf(profileOfRecord(task.coordinateMode)),
    model_profile: profileOfRecord(task.coordinateMode),
    created_at: iso(task.createdAt),
    started_at: iso(task.startedAt),
    ended_at: iso(task.endedAt),
    usage: task.usage,
  };
}

export function stepView(step: StepRecord): StepView {
  return {
    index: step.index,
    outcome: step.outcome,
    outcome_message: step.outcomeMessage,
    thought: step.thought,
    reflection: step.reflection,
    raw_prediction: step.rawPrediction,
    screenshot: step.screenshotPath
      ? {
          width: step.imageWidth,
          height: step.imageHeight,
          device_pixel_ratio: step.devicePixelRatio,
        }
      : null,
    timings_ms: { capture: step.captureMs, model: step.modelMs, execute: step.executeMs },
    model_request_bytes: step.modelRequestBytes,
    usage: step.modelUsage && stepUsageView(step.modelUsage),
    network: networkOf(step.network),
    started_at: iso(step.startedAt),
    ended_at: iso(step.endedAt),
  };
}

function stepUsageView(call: CallUsage): StepUsageView {
  return {
    prompt_tokens: call.promptTokens,
    completion_tokens: call.completionTokens,
    estimated: call.estimated,
    images: call.images,
    image_bytes: call.imageBytes,
    queue_ms: call.queueMs,
    first_token_ms: call.firstTokenMs,
    total_ms: call.totalMs,
  };
}

export function actionView(action: ActionRecord): ActionView {
  return {
    index: action.index,
    type: action.type,
    model_action: action.modelAction,
    action: action.action,
    screen_point: action.screenX === null ? null : { x: action.screenX, y: action.screenY },
    css_point: action.cssX === null ? null : { x: action.cssX, y: action.cssY },
    status: action.status,
    error: action.errorCode ? { code: action.errorCode, message: action.errorMessage } : null,
    duration_ms: action.durationMs,
    navigated: action.navigated,
  };
}

export function logView(log: LogRecord): LogView {
  return {
    at: iso(log.at),
    level: log.level,
    event: log.event,
    message: log.message,
    data: log.data,
  };
}

function networkOf(stored: unknown): NetworkEvidence | null {
  const parsed = networkEvidenceSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** The task's model profile; rows from before profiles hold the UI-TARS version (`1.5`, `1.0`). */
export function profileOfRecord(coordinateMode: string): string {
  return coordinateMode === '1.5' || coordinateMode === '1.0'
    ? `ui-tars-${coordinateMode}`
    : coordinateMode;
}

/**
 * How the task's model wrote coordinates: `1.5` / `1.0` for the UI-TARS profiles (as before
 * profiles), else the profile's convention (`image-pixels`, `relative-1000`).
 */
function coordinateModeOf(profileName: string): string {
  if (profileName.startsWith('ui-tars-')) return profileName.slice('ui-tars-'.length);
  const profile = PROFILE_NAMES.find((name) => name === profileName);
  const space = profile ? profileNamed(profile)?.coordinates : undefined;
  if (!space) return 'unknown';
  return space.kind === 'relative' ? `relative-${space.divisor}` : space.kind;
}

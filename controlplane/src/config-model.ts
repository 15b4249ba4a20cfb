// The model's and the judge's CLAWDIE_MODEL_* / CLAWDIE_JUDGE_* variables: part of the
// controlplane's one zod schema (config.ts spreads `modelVariables` into it and calls these).
import { resolve } from 'node:path';
import { z } from 'zod';
import type { ImageEncoding } from './agent/model/image-encoder.js';
import { PROFILE_NAMES, type ProfileName } from './agent/profiles/profile-types.js';
import { type ModelPrices, parseModelPrices } from './config-prices.js';
import { ConfigError } from './errors.js';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

export const modelVariables = {
  CLAWDIE_MODEL_URL: z.url().optional(),
  CLAWDIE_MODEL_NAME: z.string().min(1).default('ui-tars-1.5-7b'),
  CLAWDIE_MODEL_API_KEY: z.string().min(1).optional(),
  /** The model profile (docs/models.md, "Model profiles"); default ui-tars-1.5. */
  CLAWDIE_MODEL_PROFILE: z.enum(PROFILE_NAMES).optional(),
  /** Before profiles: `1.0` is the profile ui-tars-1.0, `1.5` ui-tars-1.5. */
  CLAWDIE_MODEL_VERSION: z.enum(['1.5', '1.0']).optional(),
  CLAWDIE_MODEL_TIMEOUT_MS: int(1000, 600_000).default(60_000),
  /** Retries of one model call after failures; twice as many Retry-After waits (docs/models.md). */
  CLAWDIE_MODEL_RETRIES: int(0, 10).default(5),
  /** Retries one task may spend on model calls over all its steps. */
  CLAWDIE_MODEL_TASK_RETRIES: int(0, 1000).default(30),
  /** Model requests in flight at most, shared by every task (one limit per endpoint). */
  CLAWDIE_MODEL_CONCURRENCY: int(1, 256).default(4),
  /** Ask for streamed replies (SSE); a server that answers JSON instead still works. */
  CLAWDIE_MODEL_STREAM: z.enum(['true', 'false', '1', '0']).default('true'),
  /** A streamed reply's time to its first token; 0 turns the check off. */
  CLAWDIE_MODEL_FIRST_TOKEN_TIMEOUT_MS: int(0, 600_000).default(30_000),
  CLAWDIE_MODEL_MAX_TOKENS: int(16, 32_768).default(1024),
  CLAWDIE_MODEL_TEMPERATURE: z.coerce.number().min(0).max(2).default(0),
  CLAWDIE_MODEL_IMAGE_WINDOW: int(1, 50).default(5),
  /** The model images' format; unset: the profile's (docs/models.md, "Image formats"). */
  CLAWDIE_MODEL_IMAGE_FORMAT: z.enum(['jpeg', 'webp', 'png']).optional(),
  CLAWDIE_MODEL_JPEG_QUALITY: int(30, 100).default(80),
  CLAWDIE_MODEL_WEBP_QUALITY: int(10, 100).default(40),
  /** Screenshots older than the newest, where the profile allows it (docs/models.md, "Image formats"). */
  CLAWDIE_MODEL_OLDER_WEBP_QUALITY: int(10, 100).default(10),
  /** The vision judge of visual conditions: its own OpenAI-compatible endpoint (docs/models.md). */
  CLAWDIE_JUDGE_URL: z.url().optional(),
  CLAWDIE_JUDGE_NAME: z.string().min(1).optional(),
  CLAWDIE_JUDGE_API_KEY: z.string().min(1).optional(),
  /** Bound on one verdict (every attempt included). */
  CLAWDIE_JUDGE_TIMEOUT_MS: int(1000, 600_000).default(30_000),
  /** `true`: the task model (CLAWDIE_MODEL_URL) is also the judge. */
  CLAWDIE_JUDGE_USE_MODEL: z.enum(['true', 'false', '1', '0']).default('false'),
  CLAWDIE_REPLAY_FILE: z.string().min(1).optional(),
  /** Prices per model name, per million tokens: inline JSON or a file (config-prices.ts). */
  CLAWDIE_MODEL_PRICES: z.string().min(1).optional(),
};

const modelSchema = z.object(modelVariables);
type ModelEnv = z.infer<typeof modelSchema>;

export interface ModelConfig {
  url: string | null;
  name: string;
  apiKey: string | null;
  /** CLAWDIE_MODEL_PROFILE (or the profile CLAWDIE_MODEL_VERSION names). */
  profile: ProfileName;
  timeoutMs: number;
  /** Per call (CLAWDIE_MODEL_RETRIES) and per task (CLAWDIE_MODEL_TASK_RETRIES). */
  retries: number;
  taskRetries: number;
  concurrency: number;
  stream: boolean;
  /** 0: off. */
  firstTokenTimeoutMs: number;
  maxTokens: number;
  temperature: number;
  imageWindow: number;
  /** CLAWDIE_MODEL_IMAGE_FORMAT and the JPEG and WebP qualities. */
  imageEncoding: ImageEncoding;
  replayFile: string | null;
  /** CLAWDIE_MODEL_PRICES: a task's cost where the table names its models ({} = no costs). */
  prices: ModelPrices;
}

/** Where verdicts come from: a dedicated OpenAI-compatible endpoint, or the task model's client. */
export type JudgeConfig =
  | { kind: 'endpoint'; url: string; name: string; apiKey: string | null; timeoutMs: number }
  | { kind: 'model'; timeoutMs: number };

export function modelConfig(e: ModelEnv, cwd: string): ModelConfig {
  return {
    url: e.CLAWDIE_MODEL_URL ?? null,
    name: e.CLAWDIE_MODEL_NAME,
    apiKey: e.CLAWDIE_MODEL_API_KEY ?? null,
    profile: profileOf(e),
    timeoutMs: e.CLAWDIE_MODEL_TIMEOUT_MS,
    retries: e.CLAWDIE_MODEL_RETRIES,
    taskRetries: e.CLAWDIE_MODEL_TASK_RETRIES,
    concurrency: e.CLAWDIE_MODEL_CONCURRENCY,
    stream: e.CLAWDIE_MODEL_STREAM === 'true' || e.CLAWDIE_MODEL_STREAM === '1',
    firstTokenTimeoutMs: e.CLAWDIE_MODEL_FIRST_TOKEN_TIMEOUT_MS,
    maxTokens: e.CLAWDIE_MODEL_MAX_TOKENS,
    temperature: e.CLAWDIE_MODEL_TEMPERATURE,
    imageWindow: e.CLAWDIE_MODEL_IMAGE_WINDOW,
    imageEncoding: {
      format: e.CLAWDIE_MODEL_IMAGE_FORMAT ?? null,
      jpegQuality: e.CLAWDIE_MODEL_JPEG_QUALITY,
      webpQuality: e.CLAWDIE_MODEL_WEBP_QUALITY,
      olderWebpQuality: e.CLAWDIE_MODEL_OLDER_WEBP_QUALITY,
    },
    replayFile: e.CLAWDIE_REPLAY_FILE ? resolve(cwd, e.CLAWDIE_REPLAY_FILE) : null,
    prices: parseModelPrices(e.CLAWDIE_MODEL_PRICES, cwd),
  };
}

/** CLAWDIE_MODEL_PROFILE, or the UI-TARS profile CLAWDIE_MODEL_VERSION names; both must agree. */
function profileOf(e: ModelEnv): ProfileName {
  const fromVersion: ProfileName | null = e.CLAWDIE_MODEL_VERSION
    ? `ui-tars-${e.CLAWDIE_MODEL_VERSION}`
    : null;
  const profile = e.CLAWDIE_MODEL_PROFILE ?? fromVersion ?? 'ui-tars-1.5';
  if (fromVersion && profile !== fromVersion)
    throw new ConfigError(
      `CLAWDIE_MODEL_VERSION=${e.CLAWDIE_MODEL_VERSION} contradicts CLAWDIE_MODEL_PROFILE=${profile}; set only CLAWDIE_MODEL_PROFILE`,
    );
  return profile;
}

/**
 * The judge: CLAWDIE_JUDGE_URL + CLAWDIE_JUDGE_NAME (a dedicated endpoint), else the task model
 * with CLAWDIE_JUDGE_USE_MODEL=true, else none. Contradictions and half settings are refused.
 */
export function judgeConfig(e: ModelEnv): JudgeConfig | null {
  const useModel = e.CLAWDIE_JUDGE_USE_MODEL === 'true' || e.CLAWDIE_JUDGE_USE_MODEL === '1';
  const timeoutMs = e.CLAWDIE_JUDGE_TIMEOUT_MS;
  if (e.CLAWDIE_JUDGE_URL) {
    if (useModel)
      throw new ConfigError(
        'set CLAWDIE_JUDGE_URL (a dedicated judge) or CLAWDIE_JUDGE_USE_MODEL=true (the task model), not both',
      );
    if (!e.CLAWDIE_JUDGE_NAME)
      throw new ConfigError(
        'CLAWDIE_JUDGE_URL needs CLAWDIE_JUDGE_NAME (the model name it serves)',
      );
    return {
      kind: 'endpoint',
      url: e.CLAWDIE_JUDGE_URL,
      name: e.CLAWDIE_JUDGE_NAME,
      apiKey: e.CLAWDIE_JUDGE_API_KEY ?? null,
      timeoutMs,
    };
  }
  if (e.CLAWDIE_JUDGE_NAME || e.CLAWDIE_JUDGE_API_KEY)
    throw new ConfigError('CLAWDIE_JUDGE_NAME and CLAWDIE_JUDGE_API_KEY need CLAWDIE_JUDGE_URL');
  if (!useModel) return null;
  if (!e.CLAWDIE_MODEL_URL || e.CLAWDIE_REPLAY_FILE)
    throw new ConfigError(
      'CLAWDIE_JUDGE_USE_MODEL=true needs the task model at CLAWDIE_MODEL_URL (a replay file cannot judge)',
    );
  return { kind: 'model', timeoutMs };
}

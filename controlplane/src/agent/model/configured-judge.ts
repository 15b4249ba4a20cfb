import { createModelVisualJudge } from '../../browser/wait/visual-judge.js';
import type { VisualJudge } from '../../browser/wait/wait-types.js';
import type { Config } from '../../config.js';
import { ConfigError } from '../../errors.js';
import type { VisionModel } from './chat-types.js';
import { configuredProfile } from './configured-model.js';
import { createOpenAiCompatibleModel } from './openai-compatible-model.js';

/**
 * The vision judge the config names (docs/models.md, "Judge"): a client of its own endpoint
 * (CLAWDIE_JUDGE_URL), the task model's client (CLAWDIE_JUDGE_USE_MODEL=true), or null — then
 * visual conditions are refused at admission. Each verdict is bounded by CLAWDIE_JUDGE_TIMEOUT_MS.
 */
export function createConfiguredJudge(
  config: Readonly<Config>,
  model: VisionModel | null,
): VisualJudge | null {
  const judge = config.judge;
  if (!judge) return null;
  if (judge.kind === 'model') {
    if (!model || model.isReplay)
      throw new ConfigError(
        'CLAWDIE_JUDGE_USE_MODEL=true, but there is no task model to judge with (CLAWDIE_MODEL_URL)',
      );
    if (!configuredProfile(config).canJudge)
      throw new ConfigError(
        `CLAWDIE_JUDGE_USE_MODEL=true, but a ${config.model.profile} model cannot judge (it answers with tool calls, not text); set CLAWDIE_JUDGE_URL + CLAWDIE_JUDGE_NAME`,
      );
    return createModelVisualJudge(model, { timeoutMs: judge.timeoutMs });
  }
  const client = createOpenAiCompatibleModel({
    baseUrl: judge.url,
    model: judge.name,
    apiKey: judge.apiKey,
    timeoutMs: judge.timeoutMs,
    retries: config.model.retries,
    maxTokens: config.model.maxTokens,
    temperature: 0,
  });
  return createModelVisualJudge(client, { timeoutMs: judge.timeoutMs });
}

/** One line for the start-up banner: where verdicts come from, or that visual conditions are refused. */
export function describeJudge(config: Readonly<Config>): string {
  const judge = config.judge;
  if (!judge)
    return 'none: visual conditions are refused (set CLAWDIE_JUDGE_URL + CLAWDIE_JUDGE_NAME, or CLAWDIE_JUDGE_USE_MODEL=true)';
  return judge.kind === 'model'
    ? `the task model (CLAWDIE_JUDGE_USE_MODEL=true)`
    : `${judge.name} at ${judge.url}`;
}

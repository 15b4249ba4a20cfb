import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { VisionModel } from './chat-types.js';
import { createOpenAiCompatibleModel } from './openai-compatible-model.js';
import { loadReplayModel } from './replay-model.js';

/**
 * The model the config names (a replay file first), or null when none is configured. One client
 * per process, so its concurrency limit is shared by every task. `clock` and `random` (jitter)
 * default to the system's.
 */
export async function createConfiguredModel(
  config: Readonly<Config>,
  ports: { clock?: Clock; random?: () => number } = {},
): Promise<VisionModel | null> {
  const { model } = config;
  if (model.replayFile) return loadReplayModel(model.replayFile);
  if (!model.url) return null;
  return createOpenAiCompatibleModel({
    baseUrl: model.url,
    model: model.name,
    apiKey: model.apiKey,
    timeoutMs: model.timeoutMs,
    retries: model.retries,
    maxTokens: model.maxTokens,
    temperature: model.temperature,
    concurrency: model.concurrency,
    stream: model.stream,
    firstTokenTimeoutMs: model.firstTokenTimeoutMs,
    ...ports,
  });
}

import type { Config } from '../config.js';
import type { VisionModel } from './chat-types.js';
import { createOpenAiCompatibleModel } from './openai-compatible-model.js';
import { loadReplayModel } from './replay-model.js';

/** The model the config names (a replay file first), or null when none is configured. */
export async function createConfiguredModel(config: Readonly<Config>): Promise<VisionModel | null> {
  if (config.model.replayFile) return loadReplayModel(config.model.replayFile);
  if (!config.model.url) return null;
  return createOpenAiCompatibleModel({
    baseUrl: config.model.url,
    model: config.model.name,
    apiKey: config.model.apiKey,
    timeoutMs: config.model.timeoutMs,
    retries: config.model.retries,
    maxTokens: config.model.maxTokens,
    temperature: config.model.temperature,
  });
}

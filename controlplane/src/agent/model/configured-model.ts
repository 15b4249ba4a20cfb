import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import { ConfigError } from '../../errors.js';
import { profileNamed } from '../profiles/index.js';
import type { ModelProfile } from '../profiles/profile-types.js';
import type { VisionModel } from './chat-types.js';
import { createOpenAiCompatibleModel } from './openai-compatible-model.js';
import { loadReplayModel } from './replay-model.js';
import { wireNamed } from './wires/index.js';
import type { Wire } from './wires/wire-types.js';

/** The profile CLAWDIE_MODEL_PROFILE names. */
export function configuredProfile(config: Readonly<Config>): ModelProfile {
  const profile = profileNamed(config.model.profile, config.model.name);
  if (!profile) throw new ConfigError(`model profile ${config.model.profile} is not built in`);
  return profile;
}

/** The wire a profile speaks. */
export function wireOf(profile: ModelProfile): Wire {
  const wire = wireNamed(profile.wire);
  if (!wire)
    throw new ConfigError(`the ${profile.wire} wire of profile ${profile.name} is missing`);
  return wire;
}

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
    wire: wireOf(configuredProfile(config)),
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

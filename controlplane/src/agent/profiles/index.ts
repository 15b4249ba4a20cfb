// The built-in model profiles by name (docs/models.md, "Model profiles").
import { anthropicComputerUseProfile } from './anthropic-computer-use.js';
import { geminiComputerUseProfile } from './gemini-computer-use.js';
import { openAiComputerToolProfile, openAiComputerUseProfile } from './openai-computer-use.js';
import type { ModelProfile, ProfileName } from './profile-types.js';
import { qwen25VlProfile } from './qwen2.5-vl.js';
import { qwen3VlProfile } from './qwen3-vl.js';
import { uiTars10, uiTars15 } from './ui-tars.js';

const PROFILES: Record<ProfileName, ModelProfile> = {
  'ui-tars-1.5': uiTars15,
  'ui-tars-1.0': uiTars10,
  'qwen2.5-vl': qwen25VlProfile,
  'qwen3-vl': qwen3VlProfile,
  'openai-computer-use': openAiComputerToolProfile,
  'anthropic-computer-use': anthropicComputerUseProfile,
  'gemini-computer-use': geminiComputerUseProfile,
};

/**
 * The profile called `name`, or null when it is not built in. `modelName` picks a variant where a
 * provider has two tool shapes: OpenAI's `computer-use-preview` model takes the
 * `computer_use_preview` tool (a declared display), newer models the `computer` tool.
 */
export function profileNamed(name: ProfileName, modelName?: string): ModelProfile | null {
  if (name === 'openai-computer-use' && modelName?.startsWith('computer-use-preview'))
    return openAiComputerUseProfile;
  return PROFILES[name] ?? null;
}

// Each built-in profile's golden fake provider and the model name it is configured with: the
// golden-coordinate test and bench:profiles play every profile against these. A profile with two
// wire forms (Qwen: parsed tool_calls or inline <tool_call> text; OpenAI: the preview tool or the
// newer one, picked by model name) is played in each.
import type { ProfileName } from '../../../controlplane/src/agent/profiles/profile-types.js';
import { startAnthropicMessagesGolden } from './fake-anthropic-messages-server.js';
import { startChatToolsGolden } from './fake-chat-tools-server.js';
import { startGeminiGolden } from './fake-gemini-server.js';
import { startOpenAiResponsesGolden } from './fake-openai-responses-server.js';
import { startUiTarsGolden } from './fake-uitars-server.js';
import type { GoldenServer, GoldenServerOptions } from './golden-types.js';

export interface GoldenFake {
  /** What the test names it by (the profile, and the form where there are two). */
  label: string;
  profile: ProfileName;
  modelName: string;
  start(options: GoldenServerOptions & Record<string, unknown>): Promise<GoldenServer>;
  /**
   * The format the images must arrive in when it is not the profile's `format`: a fake posing
   * as a server that decodes the profile's preferred one (vLLM, SGLang; model-server.ts).
   */
  imageFormat?: 'webp';
}

export const GOLDEN_FAKES: readonly GoldenFake[] = [
  {
    label: 'ui-tars-1.5',
    profile: 'ui-tars-1.5',
    modelName: 'ui-tars-1.5-7b',
    start: (o) => startUiTarsGolden('1.5', o),
  },
  {
    label: 'ui-tars-1.0',
    profile: 'ui-tars-1.0',
    modelName: 'ui-tars-72b-dpo',
    start: (o) => startUiTarsGolden('1.0', o),
  },
  {
    label: 'ui-tars-1.5 on vLLM (WebP)',
    profile: 'ui-tars-1.5',
    modelName: 'ui-tars-1.5-7b',
    start: (o) => startUiTarsGolden('1.5', { ...o, poseAs: 'vllm' }),
    imageFormat: 'webp',
  },
  {
    label: 'qwen2.5-vl (tool_calls)',
    profile: 'qwen2.5-vl',
    modelName: 'Qwen/Qwen2.5-VL-7B-Instruct',
    start: (o) => startChatToolsGolden({ ...o, convention: 'qwen2.5' }),
  },
  {
    label: 'qwen3-vl (inline <tool_call>)',
    profile: 'qwen3-vl',
    modelName: 'Qwen/Qwen3-VL-8B-Instruct',
    start: (o) => startChatToolsGolden({ ...o, convention: 'qwen3', inline: true }),
  },
  {
    label: 'qwen3-vl on SGLang (WebP)',
    profile: 'qwen3-vl',
    modelName: 'Qwen/Qwen3-VL-8B-Instruct',
    start: (o) =>
      startChatToolsGolden({ ...o, convention: 'qwen3', inline: true, poseAs: 'sglang' }),
    imageFormat: 'webp',
  },
  {
    label: 'openai-computer-use (computer_use_preview)',
    profile: 'openai-computer-use',
    modelName: 'computer-use-preview',
    start: startOpenAiResponsesGolden,
  },
  {
    label: 'openai-computer-use (computer)',
    profile: 'openai-computer-use',
    modelName: 'gpt-5.4',
    start: startOpenAiResponsesGolden,
  },
  {
    label: 'anthropic-computer-use',
    profile: 'anthropic-computer-use',
    modelName: 'claude-sonnet-4-5',
    start: startAnthropicMessagesGolden,
  },
  {
    label: 'gemini-computer-use',
    profile: 'gemini-computer-use',
    modelName: 'gemini-2.5-computer-use-preview-10-2025',
    start: startGeminiGolden,
  },
];

/** The fake called `label`. */
export function goldenFake(label: string): GoldenFake {
  const fake = GOLDEN_FAKES.find((entry) => entry.label === label);
  if (!fake) throw new Error(`no golden fake ${label}`);
  return fake;
}

// Each built-in profile's golden fake provider and the model name it is configured with: the
// golden-coordinate test and bench:profiles play every profile against these.
import type { ProfileName } from '../../../controlplane/src/agent/profiles/profile-types.js';
import { startAnthropicMessagesGolden } from './fake-anthropic-messages-server.js';
import { startGeminiGolden } from './fake-gemini-server.js';
import { startUiTarsGolden } from './fake-uitars-server.js';
import type { GoldenServer, GoldenServerOptions } from './golden-types.js';

export interface GoldenFake {
  modelName: string;
  start(options: GoldenServerOptions): Promise<GoldenServer>;
}

export const GOLDEN_FAKES: Partial<Record<ProfileName, GoldenFake>> = {
  'ui-tars-1.5': { modelName: 'ui-tars-1.5-7b', start: (o) => startUiTarsGolden('1.5', o) },
  'ui-tars-1.0': { modelName: 'ui-tars-72b-dpo', start: (o) => startUiTarsGolden('1.0', o) },
  'anthropic-computer-use': { modelName: 'claude-sonnet-4-5', start: startAnthropicMessagesGolden },
  'gemini-computer-use': {
    modelName: 'gemini-2.5-computer-use-preview-10-2025',
    start: startGeminiGolden,
  },
};

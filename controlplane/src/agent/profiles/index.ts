// The built-in model profiles by name (docs/models.md, "Model profiles").

import { anthropicComputerUseProfile } from './anthropic-computer-use.js';
import { geminiComputerUseProfile } from './gemini-computer-use.js';
import type { ModelProfile, ProfileName } from './profile-types.js';
import { uiTars10, uiTars15 } from './ui-tars.js';

const PROFILES: Partial<Record<ProfileName, ModelProfile>> = {
  'ui-tars-1.5': uiTars15,
  'ui-tars-1.0': uiTars10,
  'anthropic-computer-use': anthropicComputerUseProfile,
  'gemini-computer-use': geminiComputerUseProfile,
};

/** The profile called `name`, or null when it is not built in (yet). */
export function profileNamed(name: ProfileName): ModelProfile | null {
  return PROFILES[name] ?? null;
}

/** The names of the profiles this build has. */
export function availableProfiles(): ProfileName[] {
  return Object.keys(PROFILES) as ProfileName[];
}

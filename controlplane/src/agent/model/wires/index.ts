// The wires by name: one per provider dialect the model profiles speak.
import type { WireName } from '../../profiles/profile-types.js';
import { anthropicMessagesWire } from './anthropic-messages.js';
import { chatCompletionsWire } from './chat-completions.js';
import { geminiGenerateContentWire } from './gemini-generate-content.js';
import { openAiResponsesWire } from './openai-responses.js';
import type { Wire } from './wire-types.js';

const WIRES: Record<WireName, Wire> = {
  'chat-completions': chatCompletionsWire,
  'anthropic-messages': anthropicMessagesWire,
  'gemini-generate-content': geminiGenerateContentWire,
  'openai-responses': openAiResponsesWire,
};

/** The wire called `name`, or null when this build lacks it. */
export function wireNamed(name: WireName): Wire | null {
  return WIRES[name] ?? null;
}

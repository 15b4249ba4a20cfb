// The wires by name: one per provider dialect the model profiles speak.
import type { WireName } from '../../profiles/profile-types.js';
import { chatCompletionsWire } from './chat-completions.js';
import type { Wire } from './wire-types.js';

const WIRES: Partial<Record<WireName, Wire>> = {
  'chat-completions': chatCompletionsWire,
};

/** The wire called `name`, or null when this build lacks it. */
export function wireNamed(name: WireName): Wire | null {
  return WIRES[name] ?? null;
}

// Which screenshots of a history go into a request: the newest `window` of them. Every profile
// leaves the older ones out the same way (vLLM's --limit-mm-per-prompt, hosted APIs' size caps).
import type { HistoryTurn } from './profile-types.js';

type Observation = Extract<HistoryTurn, { kind: 'observation' }>;

/** The observations whose image is sent, by identity. */
export function keptImages(history: readonly HistoryTurn[], window: number): Set<Observation> {
  const observations = history.filter((turn): turn is Observation => turn.kind === 'observation');
  return new Set(observations.slice(Math.max(0, observations.length - window)));
}

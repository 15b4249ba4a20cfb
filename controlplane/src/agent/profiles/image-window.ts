// Which screenshots of a history go into a request: at most the newest `window`, the older ones
// leaving in chunks of half the window. Sliding by one would change the request right after the
// first image every step, so a server's prefix cache (vLLM, llama.cpp, Anthropic's cache) would
// only ever hold the prompt; in chunks, the prefix stays byte-identical for several steps
// (anthropic-quickstarts computer_use_demo/loop.py `_maybe_filter_to_n_most_recent_images` drops
// in chunks for the same reason). Between window − chunk + 1 and window screenshots are sent.
import type { HistoryTurn } from './profile-types.js';

/** Indices (into `history`) of the observations whose image is sent. */
export function keptImages(history: readonly HistoryTurn[], window: number): Set<number> {
  const shots = history.flatMap((turn, index) => (turn.kind === 'observation' ? [index] : []));
  const limit = Math.max(1, Math.floor(window));
  const excess = shots.length - limit;
  if (excess <= 0) return new Set(shots);
  const chunk = Math.max(1, Math.floor(limit / 2));
  return new Set(shots.slice(Math.ceil(excess / chunk) * chunk));
}

// Which screenshots of a history go into a request: at most the newest `window`, the older ones
// leaving in chunks of half the window (rounded up). Sliding by one would change the request right
// after the first image every step, so a server's prefix cache (vLLM, llama.cpp, Anthropic's
// cache) would only ever hold the prompt; in chunks, the prefix stays byte-identical for several
// steps (anthropic-quickstarts computer_use_demo/loop.py `_maybe_filter_to_n_most_recent_images`
// drops in chunks for the same reason). Between window − chunk + 1 and window screenshots are sent.
import type { HistoryTurn } from './profile-types.js';

/** How many of `observations` screenshots, oldest first, are left out of a request. */
export function imagesLeftOut(observations: number, window: number): number {
  const limit = Math.max(1, Math.floor(window));
  const excess = observations - limit;
  if (excess <= 0) return 0;
  const chunk = Math.ceil(limit / 2);
  return Math.ceil(excess / chunk) * chunk;
}

/**
 * How many of `observations` screenshots, oldest first, go as their lower-quality `older` copy
 * (where the profile made one): those already older than the newest when the window last dropped
 * a chunk. That request's prefix changed from its first screenshot on anyway; switching them only
 * then keeps consecutive requests byte-identical up to the newest screenshot between drops. None
 * before the first drop.
 */
export function imagesAtOlderQuality(observations: number, window: number): number {
  const left = imagesLeftOut(observations, window);
  if (left === 0) return 0;
  const limit = Math.max(1, Math.floor(window));
  const droppedAt = left - Math.ceil(limit / 2) + limit + 1; // the first count with `left` out
  return droppedAt - 1;
}

/** Indices (into `history`) of the observations whose image is sent. */
export function keptImages(history: readonly HistoryTurn[], window: number): Set<number> {
  const shots = history.flatMap((turn, index) => (turn.kind === 'observation' ? [index] : []));
  return new Set(shots.slice(imagesLeftOut(shots.length, window)));
}

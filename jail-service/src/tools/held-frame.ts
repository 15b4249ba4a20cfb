// A held first frame (issue 24, 4): a pooled clone's first screenshot of its idle start page,
// kept and answered again for as long as nothing can have changed what is on screen. Anything
// else — any request but a screenshot or a health check, or a change `idle` sees (navigation,
// another target, the viewport, the document itself) — drops it for good: one frame per
// process, never held again. The capture behind it is the real one; this only skips repeating it.
import type { Screenshot } from '../page-driver.js';

/**
 * What is on screen, as a value that changes whenever it may have: null when it cannot be
 * vouched for (not the idle start page, or the page did not answer). Must not throw.
 */
export type IdleFingerprint = () => Promise<string | null>;

export interface HeldFrame {
  /**
   * The held frame when it is still exactly what a capture at `quality` (null: the default)
   * would show now, else null.
   */
  take(quality: number | null): Promise<Screenshot | null>;
  /**
   * Captures through `capture` and, when this is the first frame and `idle` read the same before
   * and after, holds it.
   */
  capture(quality: number | null, capture: () => Promise<Screenshot>): Promise<Screenshot>;
  /** Something happened (input, navigation, a session import…): never hold again. */
  drop(): void;
  /**
   * Takes the first frame now, in the background (at start-up, while the service begins to
   * listen): the first `take` waits for it rather than capturing again. Never rejects.
   */
  prime(capture: () => Promise<Screenshot>): void;
}

/** `held` in the response header `clawdie-frame` when the answer is the held frame. */
export const HELD_FRAME_HEADER = 'clawdie-frame';

export function createHeldFrame(idle: IdleFingerprint): HeldFrame {
  let held: { shot: Screenshot; quality: number | null; fingerprint: string } | null = null;
  let spent = false;
  let priming: Promise<unknown> | null = null;
  const drop = () => {
    held = null;
    spent = true;
  };
  const frame: HeldFrame = {
    async take(quality) {
      if (priming && !spent) await priming;
      const candidate = held;
      if (spent || !candidate || candidate.quality !== quality) return null;
      const now = await idle();
      if (!spent && held === candidate && now === candidate.fingerprint) return candidate.shot;
      // The page moved on without a request (a crash, a target change): never held again.
      drop();
      return null;
    },
    async capture(quality, capture) {
      const before = spent || held ? null : await idle();
      const shot = await capture();
      if (before !== null && !spent && !held && (await idle()) === before && !spent) {
        held = { shot, quality, fingerprint: before };
      }
      return shot;
    },
    drop,
    prime(capture) {
      priming = frame.capture(null, capture).catch(() => undefined);
      void priming.finally(() => {
        priming = null;
      });
    },
  };
  return frame;
}

/** Requests that leave the page as it is: every other request drops the held frame first. */
export function leavesPageAsIs(method: string, path: string): boolean {
  return method === 'GET' && (path === '/screenshot' || path === '/health');
}

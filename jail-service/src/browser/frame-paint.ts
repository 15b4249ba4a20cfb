// Waits, before pointer input, until the browser can route it into every out-of-process frame.
// Chromium sends a mouse event to the renderer its compositor hit-test data names; a frame in
// another process is in that data only once it has drawn and its parent has drawn a frame
// embedding it. Until then (right after a load, longer on a loaded host) a click over the frame
// goes to the parent, whose <iframe> element takes it: the frame gets the focus, the field under
// the pointer never sees the click. Measured: 5 of 60 clicks right after a load, under CPU load.

import type { CDPSession, Frame } from 'puppeteer-core';
import { frameSession } from './frame-walk.js';
import { createPageScript } from './page-script.js';
import type { Tab } from './page-tabs.js';

/**
 * Resolves after the frame has produced two more frames (the second one starts after the
 * first was committed), or after 100 ms when it renders none (a hidden tab, a hidden frame).
 */
const PAINTED = `new Promise((resolve) => {
  const fallback = setTimeout(resolve, 100);
  requestAnimationFrame(() => requestAnimationFrame(() => { clearTimeout(fallback); resolve(); }));
})`;

/** Longest wait for the frames to paint, whatever they do. */
const PAINT_BOUND_MS = 1000;

export interface FramePaint {
  /** Resolves once every out-of-process frame of `tab` has been drawn into its parent. */
  ready(tab: Tab): Promise<void>;
}

/** Remembers the frames seen drawn (by their session), so each is waited for once. */
export function createFramePaint(): FramePaint {
  const painted = new WeakMap<Frame, CDPSession>();
  return {
    async ready(tab) {
      const root = frameSession(tab.page.mainFrame());
      const fresh = tab.page.frames().filter((frame) => {
        const session = frameSession(frame);
        return session !== root && painted.get(frame) !== session;
      });
      if (fresh.length === 0) return;
      const paint = async (): Promise<void> => {
        await Promise.all(fresh.map((frame) => paintOf(frameSession(frame))));
        // Then the top page: a frame of its own drawn after those, which embeds them.
        await paintOf(tab.session);
      };
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, PAINT_BOUND_MS);
      });
      try {
        await Promise.race([paint(), limit]);
      } finally {
        clearTimeout(timer);
      }
      for (const frame of fresh) painted.set(frame, frameSession(frame));
    },
  };
}

/** One paint of the frame behind `session`; never throws (a frame may go away meanwhile). */
async function paintOf(session: CDPSession): Promise<void> {
  await createPageScript(session)
    .evaluate(PAINTED)
    .catch(() => undefined);
}

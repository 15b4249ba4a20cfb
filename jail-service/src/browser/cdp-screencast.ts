// Adapter: the ScreencastSource over CDP `Page.startScreencast` on a dedicated session of the page.

import { jpegSize, type MaskCodec } from '@clawdie/kit/images';
import { sleep } from '@clawdie/kit/timing';
import type { Logger } from 'pino';
import type { CDPSession, Frame, Page, Protocol } from 'puppeteer-core';
import type { ScreencastSettings, ScreencastSource } from '../screencast.js';
import { bounded } from './bounded.js';
import { unstalledCapture } from './capture-stall.js';
import { type FieldMasks, paintMasks, unionBoxes } from './field-masks.js';
import type { PageTabs, Tab } from './page-tabs.js';

/** What the feed follows: the active tab, and the fields to paint over in its frames. */
export interface ScreencastTabs {
  tabs: PageTabs;
  masks: FieldMasks;
  codec: MaskCodec;
}

/** Without a CDP frame this long after (re)starting, a screenshot stands in as the first frame. */
const primeAfterMs = 400;

/**
 * One CDP screencast per page, shared by every subscriber: started with the first subscriber's
 * settings, stopped when the last one leaves. Robust against two ways CDP goes quiet:
 * - every frame is acknowledged on the session that delivered it, even before
 *   `Page.startScreencast` returned (an unacknowledged frame stops the stream for good);
 * - a main-frame navigation (possibly a renderer swap) restarts the screencast, and a restart
 *   that yields no frame soon is primed with a screenshot, so viewers never wait on a blank;
 * - it follows the active tab (a popup the page opened, then its opener again);
 * - fields holding a secret are painted over in every frame (boxes taken when the frame
 *   arrives, united with the previous frame's; the whole frame when a box cannot be had).
 */
export function createCdpScreencastSource(
  source: ScreencastTabs,
  logger: Logger,
): ScreencastSource {
  const { tabs, masks, codec } = source;
  const log = logger.child({ module: 'screencast' });
  const listeners = new Set<(jpeg: Uint8Array) => void>();
  let active: {
    session: CDPSession;
    settings: ScreencastSettings;
    framed: boolean;
    tab: Tab;
  } | null = null;
  let starting: Promise<void> | null = null;
  // Frames are masked in order: each waits for the one before.
  let chain: Promise<unknown> = Promise.resolve();
  let lastBoxes: Awaited<ReturnType<FieldMasks['boxes']>> = [];

  const deliver = (jpeg: Uint8Array) => {
    for (const listener of listeners) listener(jpeg);
  };

  /** Paints the tab's masked fields over a frame `scale` image pixels per CSS pixel. */
  const masked = (tab: Tab, jpeg: Uint8Array, scale: number, quality: number) => {
    if (!masks.has(tab)) {
      lastBoxes = [];
      return Promise.resolve(jpeg);
    }
    return masks.boxes(tab).then((boxes) => {
      const both = unionBoxes(lastBoxes, boxes);
      lastBoxes = boxes;
      return paintMasks(codec, jpeg, both, scale, quality);
    });
  };
  const deliverMasked = (tab: Tab, jpeg: Uint8Array, scale: number, quality: number) => {
    chain = chain
      .then(() => masked(tab, jpeg, scale, quality))
      .then(deliver, (error: unknown) =>
        log.warn({ err: error }, 'screencast frame dropped: masking failed'),
      );
  };

  async function start(settings: ScreencastSettings): Promise<void> {
    await tabs.ready();
    const tab = tabs.active();
    const page = tab.page;
    const session = await page.createCDPSession();
    const current = { session, settings, framed: false, tab };
    session.on('Page.screencastFrame', (event: Protocol.Page.ScreencastFrameEvent) => {
      void session
        .send('Page.screencastFrameAck', { sessionId: event.sessionId })
        .catch((error: unknown) => log.debug({ err: error }, 'screencast ack failed'));
      current.framed = true;
      const jpeg = Buffer.from(event.data, 'base64');
      const width = jpegWidth(jpeg) ?? event.metadata.deviceWidth;
      const scale = width / Math.max(1, event.metadata.deviceWidth);
      deliverMasked(tab, jpeg, scale, settings.quality);
    });
    active = current;
    await session.send('Page.startScreencast', {
      format: 'jpeg',
      quality: settings.quality,
      maxWidth: settings.maxWidth,
      maxHeight: settings.maxHeight,
      everyNthFrame: 1,
    });
    setTimeout(() => void prime(current), primeAfterMs).unref();
  }

  async function prime(current: NonNullable<typeof active>): Promise<void> {
    if (active !== current || current.framed || listeners.size === 0) return;
    try {
      const { page } = current.tab;
      // Guarded like every capture: it holds puppeteer's screenshot lock while it waits.
      const shot = await unstalledCapture(
        page,
        page.screenshot({ type: 'jpeg', quality: current.settings.quality }),
        log,
      );
      const scale = (jpegWidth(shot) ?? 1) / Math.max(1, page.viewport()?.width ?? 1);
      if (active === current && !current.framed)
        deliverMasked(current.tab, shot, scale, current.settings.quality);
    } catch (error) {
      log.debug({ err: error }, 'screencast priming screenshot failed');
    }
  }

  async function stop(): Promise<void> {
    const current = active;
    active = null;
    starting = null;
    if (!current) return;
    current.session.removeAllListeners('Page.screencastFrame');
    await bounded(current.session.send('Page.stopScreencast'), log, 'stop screencast');
    await bounded(current.session.detach(), log, 'detach screencast session');
  }

  const restart = () => {
    if (!active || listeners.size === 0) return;
    const settings = active.settings;
    starting = stop().then(() => start(settings));
    starting.catch((error: unknown) => log.warn({ err: error }, 'screencast restart failed'));
  };
  const watched = new WeakSet<Page>();
  const watch = (page: Page) => {
    if (watched.has(page)) return;
    watched.add(page);
    page.on('framenavigated', (frame: Frame) => {
      if (frame === page.mainFrame() && active?.tab.page === page) restart();
    });
  };
  for (const tab of tabs.list()) watch(tab.page);
  tabs.onSwitch((tab) => {
    watch(tab.page);
    if (active && active.tab !== tab) restart();
  });

  /**
   * Starts the screencast or joins the start in flight. A navigation during a start detaches its
   * session (the start then fails) and begins a restart: join that one instead; a start that fails
   * on its own is retried twice (pages mid-navigation refuse new sessions briefly).
   */
  async function joinScreencast(settings: ScreencastSettings): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      starting ??= start(settings);
      const current = starting;
      try {
        await current;
        return;
      } catch (error) {
        if (starting !== current && starting !== null) continue;
        starting = null;
        if (attempt >= 3) throw error;
        log.debug({ err: error, attempt }, 'screencast start failed; retrying');
        await sleep(100 * attempt);
      }
    }
  }

  return {
    async subscribe(settings, listener) {
      listeners.add(listener);
      try {
        await joinScreencast(settings);
      } catch (error) {
        listeners.delete(listener);
        throw error;
      }
      let left = false;
      return async () => {
        if (left) return;
        left = true;
        listeners.delete(listener);
        if (listeners.size === 0) await stop();
      };
    },
  };
}

/** The width of a baseline or progressive JPEG (its SOF marker), or null. */
function jpegWidth(jpeg: Uint8Array): number | null {
  return jpegSize(jpeg)?.width ?? null;
}

// Adapter: the ScreencastSource over CDP `Page.startScreencast` on a dedicated session of the page.
import type { Logger } from 'pino';
import type { CDPSession, Frame, Page, Protocol } from 'puppeteer-core';
import type { ScreencastSettings, ScreencastSource } from '../screencast.js';
import { sleep } from '../timing/sleep.js';
import { bounded } from './bounded.js';

/** Without a CDP frame this long after (re)starting, a screenshot stands in as the first frame. */
const primeAfterMs = 400;

/**
 * One CDP screencast per page, shared by every subscriber: started with the first subscriber's
 * settings, stopped when the last one leaves. Robust against two ways CDP goes quiet:
 * - every frame is acknowledged on the session that delivered it, even before
 *   `Page.startScreencast` returned (an unacknowledged frame stops the stream for good);
 * - a main-frame navigation (possibly a renderer swap) restarts the screencast, and a restart
 *   that yields no frame soon is primed with a screenshot, so viewers never wait on a blank.
 */
export function createCdpScreencastSource(page: Page, logger: Logger): ScreencastSource {
  const log = logger.child({ module: 'screencast' });
  const listeners = new Set<(jpeg: Uint8Array) => void>();
  let active: { session: CDPSession; settings: ScreencastSettings; framed: boolean } | null = null;
  let starting: Promise<void> | null = null;

  const deliver = (jpeg: Uint8Array) => {
    for (const listener of listeners) listener(jpeg);
  };

  async function start(settings: ScreencastSettings): Promise<void> {
    const session = await page.createCDPSession();
    const current = { session, settings, framed: false };
    session.on('Page.screencastFrame', (event: Protocol.Page.ScreencastFrameEvent) => {
      void session
        .send('Page.screencastFrameAck', { sessionId: event.sessionId })
        .catch((error: unknown) => log.debug({ err: error }, 'screencast ack failed'));
      current.framed = true;
      deliver(Buffer.from(event.data, 'base64'));
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
      const shot = await page.screenshot({ type: 'jpeg', quality: current.settings.quality });
      if (active === current && !current.framed) deliver(shot);
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

  page.on('framenavigated', (frame: Frame) => {
    if (frame !== page.mainFrame() || !active || listeners.size === 0) return;
    const settings = active.settings;
    starting = stop().then(() => start(settings));
    starting.catch((error: unknown) => log.warn({ err: error }, 'screencast restart failed'));
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

// Adapter: the TakeoverPage port over puppeteer-core — page signals evaluated in every frame, and
// a supervisor's input dispatched with CDP Input.* (through puppeteer's mouse and keyboard, which
// keep button and modifier state) at CSS pixels of the emulated viewport.

import type { CaptchaKind, InputReport, PageSignals, SupervisorInput } from '@clawdie/kit/jail-api';
import type { Logger } from 'pino';
import type { Frame, KeyInput, Page } from 'puppeteer-core';
import type { ViewportInfo } from '../page-driver.js';
import { captchaOfFrame, captchaOfUrl, type FrameFacts } from '../takeover/captcha-frames.js';
import type { TakeoverPage } from '../takeover/takeover-port.js';
import { FOCUSED_KIND_SCRIPT, FRAME_SIGNALS_SCRIPT } from './frame-signals-script.js';

interface FrameSignals {
  origin: string;
  password: number;
  otp: number;
  frames: FrameFacts[];
}

/** A frame that does not answer within this is skipped (a busy or dying frame). */
const FRAME_TIMEOUT_MS = 1000;

export function createCdpTakeover(
  /** The page a human takes over: the active tab (page-tabs.ts). */
  activePage: () => Page,
  viewport: () => ViewportInfo,
  logger: Logger,
): TakeoverPage {
  const log = logger.child({ module: 'takeover' });

  async function readFrame(frame: Frame): Promise<FrameSignals | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), FRAME_TIMEOUT_MS);
    });
    try {
      return await Promise.race([
        frame.evaluate(FRAME_SIGNALS_SCRIPT) as Promise<FrameSignals>,
        timeout,
      ]);
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async signals(knownOrigins) {
      const started = performance.now();
      const page = activePage();
      const frames = page.frames();
      const read = await Promise.all(frames.map(readFrame));
      const captchas = new Set<CaptchaKind>();
      const origins = new Set<string>();
      let password = 0;
      let otp = 0;
      frames.forEach((frame, index) => {
        const kind = captchaOfUrl(frame.url());
        if (kind) captchas.add(kind);
        const signals = read[index];
        if (!signals) return;
        if (signals.password > 0) origins.add(signals.origin);
        password += signals.password;
        otp += signals.otp;
        for (const facts of signals.frames) {
          const framed = captchaOfFrame(facts);
          if (framed) captchas.add(framed);
        }
      });
      const known = new Set(knownOrigins);
      const result: PageSignals = {
        url_origin: safeOrigin(page.url()),
        password: {
          count: password,
          origins: [...origins],
          new_origin: [...origins].some((origin) => !known.has(origin)),
        },
        one_time_code: otp,
        captchas: [...captchas],
        frames_checked: read.filter(Boolean).length,
        elapsed_ms: Math.round((performance.now() - started) * 10) / 10,
      };
      return result;
    },

    async input(events, signal) {
      const { width, height } = viewport();
      const report: InputReport = {
        dispatched: 0,
        targets: { password: 0, text: 0, other: 0 },
      };
      // The focused element's kind, read before the first key after a click (one evaluate per
      // burst), so typing that submits a form is still counted where it went.
      let kind: keyof InputReport['targets'] | null = null;
      const page = activePage();
      const held = createHeldInput();
      for (const event of events) {
        if (signal?.aborted) break;
        if (event.type === 'mouse' && event.action !== 'move') kind = null;
        if (event.type === 'key' || event.type === 'text') {
          kind ??= await page
            .evaluate(FOCUSED_KIND_SCRIPT)
            .then((value) => value as keyof InputReport['targets'])
            .catch(() => 'other' as const);
          report.targets[kind] += 1;
        }
        held.note(event);
        report.dispatched += 1;
        await dispatch(page, event, width, height).catch((error: unknown) =>
          // The event kind only: keys and text never reach the log.
          log.debug({ kind: event.type, err: (error as Error).message }, 'input event not sent'),
        );
      }
      if (signal?.aborted) {
        log.warn(
          { dispatched: report.dispatched, of: events.length },
          'input burst cut short: its caller gave up',
        );
        await held.release(page).catch(() => undefined);
      }
      return report;
    },
  };
}

/** Keys and mouse buttons a burst pressed and has not let go of yet. */
function createHeldInput() {
  const keys = new Set<string>();
  const buttons = new Set<'left' | 'middle' | 'right'>();
  return {
    note(event: SupervisorInput) {
      if (event.type === 'key') {
        if (event.action === 'down') keys.add(event.key);
        else keys.delete(event.key);
      }
      if (event.type === 'mouse' && event.action !== 'move') {
        const button = buttonOf(event);
        if (event.action === 'down') buttons.add(button);
        else buttons.delete(button);
      }
    },
    async release(page: Page) {
      for (const key of keys) await page.keyboard.up(key as KeyInput).catch(() => undefined);
      for (const button of buttons) await page.mouse.up({ button }).catch(() => undefined);
    },
  };
}

/** The button a mouse event presses: `none` or unset is the left one. */
function buttonOf(event: Extract<SupervisorInput, { type: 'mouse' }>) {
  return event.button === 'none' || !event.button ? 'left' : event.button;
}

async function dispatch(page: Page, event: SupervisorInput, width: number, height: number) {
  switch (event.type) {
    case 'mouse': {
      const x = event.x * width;
      const y = event.y * height;
      if (event.action === 'move') return page.mouse.move(x, y);
      await page.mouse.move(x, y);
      const options = { button: buttonOf(event), clickCount: event.click_count ?? 1 };
      return event.action === 'down' ? page.mouse.down(options) : page.mouse.up(options);
    }
    case 'wheel':
      await page.mouse.move(event.x * width, event.y * height);
      return page.mouse.wheel({ deltaX: event.delta_x, deltaY: event.delta_y });
    case 'key':
      try {
        if (event.action === 'up') return await page.keyboard.up(event.key as KeyInput);
        return await page.keyboard.down(
          event.key as KeyInput,
          event.text !== undefined ? { text: event.text } : {},
        );
      } catch {
        // A key outside puppeteer's layout (é, ß, …): type its character instead.
        if (event.action === 'down' && event.text) return page.keyboard.sendCharacter(event.text);
        return;
      }
    case 'text':
      return page.keyboard.sendCharacter(event.text);
  }
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
}

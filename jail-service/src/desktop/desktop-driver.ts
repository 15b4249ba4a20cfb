// The PageDriver over an X11 display (a clone's Xvfb): screenshots by `xwd -root` (decoded here,
// encoded by the process's image codec), input by chained xdotool invocations. The device pixel ratio is 1, so the
// viewport is the screen and the model's coordinates are X pixels. There is no page to navigate.

import type { ImageCodec } from '@clawdie/kit/images';
import type { ElementsResponse, PageState } from '@clawdie/kit/jail-api';
import { type CommandRunner, CommandTimeoutError, type RunResult } from '@clawdie/kit/runner';
import { sleep } from '@clawdie/kit/timing';
import { ActionFailedError, BrowserUnavailableError, FocusMismatchError } from '../errors.js';
import type { InputOutcome, PageDriver, Screenshot, ViewportInfo } from '../page-driver.js';
import { invocationTimeoutMs, type Pointer, xdotoolInvocations } from './xdotool-steps.js';
import { decodeXwd } from './xwd-image.js';

export interface DesktopDriverOptions {
  /** The X display, `:NN`. */
  display: string;
  runner: CommandRunner;
  /** Bound on one xdotool/xwd run (typing gets more per character). */
  commandTimeoutMs: number;
  /**
   * How long a display that cannot be opened yet is retried at start (default 0: not at all). In a
   * FreeBSD jail, exec.start starts Xvfb under daemon(8), which returns before the server accepts
   * connections, and the service right after it.
   */
  waitForDisplayMs?: number;
  /** JPEG-encodes the screenshots (sharp or pure JS). */
  codec: ImageCodec;
}

/** The X tools' whole environment: a fixed PATH and the display; nothing else is inherited. */
const TOOL_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const GONE = /Can't open display|Failed creating new xdo|unable to open display/i;

/** Reads the screen size once; rejects with BrowserUnavailableError when the display is not there. */
export async function createDesktopDriver(options: DesktopDriverOptions): Promise<PageDriver> {
  const { display, runner, commandTimeoutMs } = options;
  if (!/^:\d+(\.\d+)?$/.test(display))
    throw new Error(`display must look like :NN, got ${display}`);
  const url = `x11://${display}`;
  let alive = true;
  let pointer: Pointer | null = null;
  /** Cleared once the display shows it has no window manager that reports an active window. */
  let activeWindowKnown = true;

  async function run(
    argv: [string, ...string[]],
    signal?: AbortSignal,
    timeoutMs = commandTimeoutMs,
  ) {
    let result: RunResult;
    try {
      const env = { PATH: TOOL_PATH, DISPLAY: display };
      result = await runner.run(argv, { timeoutMs, env, ...(signal ? { signal } : {}) });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof CommandTimeoutError) throw new ActionFailedError(error.message, error);
      throw new BrowserUnavailableError(`${argv[0]}: ${(error as Error).message}`, error);
    }
    if (GONE.test(result.stderr)) {
      alive = false;
      throw new BrowserUnavailableError(`${argv[0]}: X display ${display} is gone`);
    }
    return result;
  }

  let geometry = await run(['xdotool', 'getdisplaygeometry']).catch((error: unknown) => error);
  const waitUntil = Date.now() + (options.waitForDisplayMs ?? 0);
  while (geometry instanceof BrowserUnavailableError && Date.now() < waitUntil) {
    alive = true;
    await sleep(100);
    geometry = await run(['xdotool', 'getdisplaygeometry']).catch((error: unknown) => error);
  }
  if (!isResult(geometry)) throw geometry;
  const match = /^(\d+) (\d+)/.exec(geometry.stdout);
  if (geometry.exitCode !== 0 || !match) {
    throw new BrowserUnavailableError(`xdotool getdisplaygeometry: ${geometry.stderr.trim()}`);
  }
  const screen: ViewportInfo = {
    width: Number(match[1]),
    height: Number(match[2]),
    deviceScaleFactor: 1,
  };

  async function windowTitle(): Promise<string> {
    if (activeWindowKnown) {
      const result = await run(['xdotool', 'getactivewindow', 'getwindowname']);
      if (result.exitCode === 0) return result.stdout.trim();
      if (/_NET_ACTIVE_WINDOW/.test(result.stderr)) activeWindowKnown = false;
    }
    // No window manager: the newest visible window with a name stands in for the active one.
    const args = ['search', '--onlyvisible', '--name', '.', 'getwindowname', '%@'];
    const result = await run(['xdotool', ...args]);
    return result.stdout.split('\n').filter(Boolean).at(-1) ?? '';
  }

  const unsupported = (what: string): Promise<InputOutcome> =>
    Promise.reject(
      new ActionFailedError(
        `UNSUPPORTED_ON_DESKTOP: ${what} needs a browser; this surface drives the X11 desktop ${display}`,
      ),
    );

  return {
    viewport: () => screen,
    status: () => ({ connected: alive, version: `X11 ${display}`, pageAlive: alive }),
    currentUrl: () => url,
    async screenshot(quality): Promise<Screenshot> {
      const result = await run(['xwd', '-root', '-silent', '-display', display]);
      if (result.exitCode !== 0) {
        throw new BrowserUnavailableError(`xwd exited with ${result.exitCode}: ${result.stderr}`);
      }
      const image = decodeXwd(result.stdoutBytes ?? Buffer.from(result.stdout, 'latin1'));
      const { width, height } = image;
      return {
        jpeg: await options.codec.encodeJpeg(
          { width, height, channels: 3, data: image.rgb },
          quality,
        ),
        meta: {
          viewportWidth: width,
          viewportHeight: height,
          devicePixelRatio: 1,
          imageWidth: width,
          imageHeight: height,
        },
      };
    },
    async state(): Promise<PageState> {
      return { url, title: await windowTitle(), loading: false };
    },
    async elements(): Promise<ElementsResponse> {
      // No DOM on a desktop: the model works from the screenshot alone.
      const { width, height } = screen;
      return { elements: [], viewport: { width, height }, device_pixel_ratio: 1 };
    },
    async perform(steps, options): Promise<InputOutcome> {
      for (const args of xdotoolInvocations(steps, pointer)) {
        options.signal.throwIfAborted();
        const timeoutMs = invocationTimeoutMs(args, commandTimeoutMs);
        const result = await run(['xdotool', ...args], options.signal, timeoutMs);
        if (result.exitCode !== 0) {
          pointer = null;
          const message = `xdotool exited with ${result.exitCode}: ${result.stderr.trim()}`;
          throw new ActionFailedError(message);
        }
      }
      const last = steps.findLast((step) => step.kind === 'mouse-move');
      if (last) pointer = { x: last.x, y: last.y };
      return { navigated: false };
    },
    navigate: () => unsupported('navigate'),
    goBack: () => unsupported('navigate_back'),
    // A display has no DOM: no frame or field can be named, so every action lands nowhere known
    // (`target: null`); the controlplane's policy treats that as unknown.
    landing: async () => ({ url, document_id: '', target: null, source: null }),
    // A secret needs a field whose origin can be verified; an X11 desktop has none: fail closed.
    typeSecret: () =>
      Promise.reject(
        new FocusMismatchError(
          `the desktop ${display} has no field a secret can be verified against`,
        ),
      ),
    reset: async () => undefined,
    interrupt: async () => undefined,
    close: async () => undefined,
  };
}

function isResult(value: unknown): value is RunResult {
  return typeof value === 'object' && value !== null && 'exitCode' in value && 'stdout' in value;
}

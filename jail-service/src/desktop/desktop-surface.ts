// The desktop surface: the jail-service's tools, batch loop and routes over the clone's X display
// instead of the browser page. Served under `/desktop` beside the browser (see server.ts).

import type { ImageCodec } from '@clawdie/kit/images';
import { type CommandRunner, ExecFileRunner } from '@clawdie/kit/runner';
import type { Hono } from 'hono';
import type { Logger } from 'pino';
import { createApp } from '../app.js';
import { createToolRegistry } from '../tools/registry.js';
import { createDesktopDriver } from './desktop-driver.js';

/** An `xwd -root` of a 4K screen is ≈ 33 MiB; leave room for larger screens. */
const MAX_TOOL_OUTPUT_BYTES = 256 * 1024 * 1024;

export interface DesktopSurfaceOptions {
  /** The X display, `:NN`. */
  display: string;
  token: string;
  actionTimeoutMs: number;
  navigationTimeoutMs: number;
  screenshotQuality: number;
  logger: Logger;
  /** Encodes the screenshots (the process's codec, chosen by CLAWDIE_IMAGE_ENCODER). */
  codec: ImageCodec;
  /** The codec's summary for /desktop/health. */
  images?: string;
  runner?: CommandRunner;
  /** How long a display not accepting connections yet is waited for at start. */
  waitForDisplayMs?: number;
}

/** Xvfb is up within a second or two; a display still missing after this is a real failure. */
const DISPLAY_WAIT_MS = 10_000;

/** Builds the desktop app; rejects with BrowserUnavailableError when the display cannot be used. */
export async function createDesktopSurface(options: DesktopSurfaceOptions): Promise<Hono> {
  const logger = options.logger.child({ surface: 'desktop', display: options.display });
  const driver = await createDesktopDriver({
    display: options.display,
    runner: options.runner ?? new ExecFileRunner({ maxOutputBytes: MAX_TOOL_OUTPUT_BYTES }),
    commandTimeoutMs: options.actionTimeoutMs,
    waitForDisplayMs: options.waitForDisplayMs ?? DISPLAY_WAIT_MS,
    codec: options.codec,
  });
  const tools = createToolRegistry({
    driver,
    logger,
    actionTimeoutMs: options.actionTimeoutMs,
    navigationTimeoutMs: options.navigationTimeoutMs,
    screenshotQuality: options.screenshotQuality,
  });
  const summary = options.images;
  const images = summary ? { images: () => summary } : {};
  return createApp({ tools, driver, config: { token: options.token }, logger, ...images });
}

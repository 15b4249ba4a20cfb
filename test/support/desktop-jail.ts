// A real jail-service with its desktop surface on a private Xvfb (headless Chromium beside it),
// and a ClawdieBrowserOperator on `/desktop`: the path a desktop task takes inside a clone.
import { loadConfig, startJailService } from '@clawdie/jail-service/server';
import type { BrowserOperator } from '../../controlplane/src/browser/operator/browser-operator.js';
import { failingOperator } from '../../controlplane/src/browser/provider/lease-browser.js';
import { createDesktopSurfaceOperator } from '../../controlplane/src/tasks/desktop-surface-operator.js';
import { chromiumPath } from './capabilities.js';
import { silentLogger } from './silent-logger.js';
import { startXvfb, type XvfbDisplay } from './xvfb-process.js';

const TOKEN = 'desktop-jail-token-0123456789abcdef';

export interface DesktopJail {
  xvfb: XvfbDisplay;
  url: string;
  token: string;
  /** The desktop surface through HTTP, as a desktop task's loop drives it. */
  operator: BrowserOperator;
  /** Stops the jail-service, then Xvfb. Idempotent. */
  close(): Promise<void>;
}

export async function startDesktopJail(screen: { width: number; height: number }) {
  const xvfb = await startXvfb(screen);
  try {
    const config = loadConfig({
      CLAWDIE_JAIL_TOKEN: TOKEN,
      CLAWDIE_CHROMIUM_PATH: chromiumPath,
      CLAWDIE_JAIL_DESKTOP: 'true',
      DISPLAY: xvfb.display,
      PATH: '/usr/bin:/bin',
    });
    const service = await startJailService(config, silentLogger);
    const operator = createDesktopSurfaceOperator({
      id: 'desktop-jail',
      service: { url: service.url, token: TOKEN },
      display: xvfb.display,
      operator: failingOperator(new Error('only the desktop surface is used here')),
      release: async () => undefined,
    });
    let closing: Promise<void> | undefined;
    const close = () => {
      closing ??= service.close().finally(() => xvfb.stop());
      return closing;
    };
    return { xvfb, url: service.url, token: TOKEN, operator, close } satisfies DesktopJail;
  } catch (error) {
    await xvfb.stop();
    throw error;
  }
}

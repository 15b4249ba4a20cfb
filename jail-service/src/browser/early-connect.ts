// Connects puppeteer to a Chromium main.ts started early (early-chromium.ts), over its DevTools
// pipe, as puppeteer.launch would: the same transport, then its first page target.
import type { Readable, Writable } from 'node:stream';
import puppeteer, { type Browser } from 'puppeteer-core';
import { PipeTransport } from 'puppeteer-core/internal/node/PipeTransport.js';
import type { EarlyChromium } from '../runner/early-chromium.js';

/** Rejects when Chromium exits first (e.g. it cannot make its own sandbox here). */
export async function connectEarly(
  early: EarlyChromium,
  options: { protocolTimeoutMs: number; timeoutMs: number },
): Promise<Browser> {
  const write = early.child.stdio[3] as Writable | null;
  const read = early.child.stdio[4] as Readable | null;
  if (!write || !read) throw new Error('chromium has no DevTools pipe');
  const connecting = (async () => {
    const browser = await puppeteer.connect({
      transport: new PipeTransport(write, read),
      defaultViewport: null,
      protocolTimeout: options.protocolTimeoutMs,
      downloadBehavior: { policy: 'deny' },
    });
    await browser.waitForTarget((target) => target.type() === 'page', {
      timeout: options.timeoutMs,
    });
    return browser;
  })();
  connecting.catch(() => undefined);
  const exit = early.exited.then((how) => {
    throw new Error(`chromium exited (${how}): ${early.stderrTail()}`);
  });
  return Promise.race([connecting, exit]);
}

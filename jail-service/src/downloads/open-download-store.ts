// The download store of one jail-service: its root directory (configured, or a fresh temporary
// one removed on close) and the store over the browser's download events.
import { mkdir, rm } from 'node:fs/promises';
import type { Logger } from 'pino';
import { createTemporaryDir } from '../temporary-dirs.js';
import type { DownloadBrowser } from './download-port.js';
import { createDownloadStore, type DownloadStore } from './download-store.js';

export interface OpenedDownloads {
  store: DownloadStore;
  /** Clears the store, stops listening and removes a temporary root. Never throws. */
  close(): Promise<void>;
}

export async function openDownloadStore(
  browser: DownloadBrowser,
  configured: string | null,
  logger: Logger,
): Promise<OpenedDownloads> {
  const root = configured ?? (await createTemporaryDir('downloads'));
  if (configured) await mkdir(configured, { recursive: true, mode: 0o700 });
  const store = createDownloadStore({ browser, root, logger });
  return {
    store,
    async close() {
      await store.clear().catch((error: unknown) => logger.warn({ err: error }, 'downloads'));
      await browser.detach();
      if (!configured) await rm(root, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

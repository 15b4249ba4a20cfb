// Adapter: the DownloadBrowser port over a browser-level CDP session (`Browser.setDownloadBehavior`
// with events on, `Browser.downloadWillBegin` / `downloadProgress`, `Browser.cancelDownload`).
import type { Logger } from 'pino';
import type { Browser } from 'puppeteer-core';
import type { DownloadBrowser } from '../downloads/download-port.js';
import { bounded } from './bounded.js';

export async function createCdpDownloads(
  browser: Browser,
  logger: Logger,
): Promise<DownloadBrowser> {
  const cdp = await browser.target().createCDPSession();
  const behave = (dir: string | null) =>
    cdp.send(
      'Browser.setDownloadBehavior',
      dir === null
        ? { behavior: 'deny', eventsEnabled: true }
        : { behavior: 'allowAndName', downloadPath: dir, eventsEnabled: true },
    );
  // Denied from the start, but with events: an attempt before any policy is still seen.
  await behave(null);
  return {
    setDirectory: async (dir) => {
      await behave(dir);
    },
    cancel: async (guid) => {
      await cdp.send('Browser.cancelDownload', { guid });
    },
    onBegin: (listener) =>
      cdp.on('Browser.downloadWillBegin', (event) =>
        listener({ guid: event.guid, url: event.url, suggestedFilename: event.suggestedFilename }),
      ),
    onProgress: (listener) =>
      cdp.on('Browser.downloadProgress', (event) =>
        listener({
          guid: event.guid,
          receivedBytes: event.receivedBytes,
          totalBytes: event.totalBytes,
          state: event.state,
        }),
      ),
    detach: async () => {
      await bounded(cdp.detach(), logger, 'detach the download session');
    },
  };
}

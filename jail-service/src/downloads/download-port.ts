// Port: what the download store needs of a browser (CDP `Browser.setDownloadBehavior`, its two
// events and `Browser.cancelDownload`; adapter: browser/cdp-downloads.ts).

export interface DownloadBegun {
  guid: string;
  url: string;
  suggestedFilename: string;
}

export interface DownloadProgress {
  guid: string;
  receivedBytes: number;
  /** 0 while unknown (no Content-Length). */
  totalBytes: number;
  state: 'inProgress' | 'completed' | 'canceled';
}

export interface DownloadBrowser {
  /**
   * `dir`: every download is written there, named by its guid; null: every download is denied.
   * Both report each attempt through the listeners.
   */
  setDirectory(dir: string | null): Promise<void>;
  cancel(guid: string): Promise<void>;
  onBegin(listener: (event: DownloadBegun) => void): void;
  onProgress(listener: (event: DownloadProgress) => void): void;
  /** Stops listening (the browser is going away). Never throws. */
  detach(): Promise<void>;
}

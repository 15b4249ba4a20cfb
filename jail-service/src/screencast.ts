// The ScreencastSource port: a live feed of the page as JPEG frames. The CDP adapter lives in
// browser/cdp-screencast.ts; the `screencast` tool paces it into a stream (tools/screencast.ts).

export interface ScreencastSettings {
  /** JPEG quality 1–100. */
  quality: number;
  /** Frames are scaled down to fit this box (device pixels). */
  maxWidth: number;
  maxHeight: number;
}

/**
 * Starts (or joins) the page's screencast and calls `onFrame` with every frame the browser paints.
 * The browser only paints on change, so a still page yields few frames. Resolves with the function
 * that leaves the screencast (the last one out stops it). `onFrame` must not throw.
 */
export interface ScreencastSource {
  subscribe(
    settings: ScreencastSettings,
    onFrame: (jpeg: Uint8Array) => void,
  ): Promise<() => Promise<void>>;
}

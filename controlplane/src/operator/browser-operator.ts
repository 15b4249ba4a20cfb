import type { Action, ActionsResponse, PageState, ScreenshotMeta } from '@clawdie/jail-service/api';

export interface Screenshot {
  /** JPEG bytes, `meta.imageWidth × meta.imageHeight` device pixels. */
  jpeg: Buffer;
  meta: ScreenshotMeta;
}

/**
 * The browser the loop drives. `execute` runs a batch in order with early exit (later actions
 * come back `skipped`); per-action failures are values in the response. Rejects with
 * OperatorError when the browser cannot be reached or rejects the request, or an AbortError.
 */
export interface BrowserOperator {
  screenshot(signal?: AbortSignal): Promise<Screenshot>;
  execute(actions: Action[], signal?: AbortSignal): Promise<ActionsResponse>;
  state(signal?: AbortSignal): Promise<PageState>;
}

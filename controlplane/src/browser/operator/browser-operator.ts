import type {
  Action,
  ActionsResponse,
  LandingResponse,
  PageState,
  ScreenshotMeta,
} from '@clawdie/kit/jail-api';

export interface Screenshot {
  /** JPEG bytes, `meta.imageWidth × meta.imageHeight` device pixels. */
  jpeg: Buffer;
  meta: ScreenshotMeta;
}

export interface ScreenshotOptions {
  /**
   * Leave the text caret out (a wait's captures: a blinking caret is not the page changing). A
   * surface that cannot (the desktop) ignores it; the model's own screenshots keep the caret.
   */
  hideCaret?: boolean;
}

/**
 * The browser the loop drives. `execute` runs a batch in order with early exit (later actions
 * come back `skipped`); per-action failures are values in the response. Rejects with
 * OperatorError when the browser cannot be reached or rejects the request, or an AbortError.
 */
export interface BrowserOperator {
  screenshot(signal?: AbortSignal, options?: ScreenshotOptions): Promise<Screenshot>;
  execute(actions: Action[], signal?: AbortSignal): Promise<ActionsResponse>;
  state(signal?: AbortSignal): Promise<PageState>;
  /**
   * Where `action` would land if it ran now (`POST /landing`): the frames under its point or
   * holding the focus (top first, with origins), the element and a link's or form's destination,
   * plus the active page's document identity. Runs nothing. A surface without a DOM (the
   * desktop) answers `target: null`, which the policy treats as unknown (docs/security.md).
   * Rejects like `state`.
   */
  landing(action: Action, signal?: AbortSignal): Promise<LandingResponse>;
}

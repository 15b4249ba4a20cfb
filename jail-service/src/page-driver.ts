// The PageDriver port: everything the tools need from the one browser page, in CSS pixels.
// The puppeteer adapter lives in browser/; tools and routes depend only on this file.
import type {
  Action,
  ElementsResponse,
  LandingResponse,
  NetworkEvidence,
  PageState,
  ScreenshotMeta,
  SecretGuard,
} from '@clawdie/kit/jail-api';

export type MouseButton = 'left' | 'right' | 'middle';

/** One low-level input step; tools compose actions from these. Key names are DOM key names. */
export type InputStep =
  | { kind: 'mouse-move'; x: number; y: number; steps?: number }
  | { kind: 'mouse-down'; button: MouseButton; clickCount: number }
  | { kind: 'mouse-up'; button: MouseButton; clickCount: number }
  | { kind: 'wheel'; deltaX: number; deltaY: number }
  | { kind: 'key-down'; key: string }
  | { kind: 'key-up'; key: string }
  | { kind: 'type-text'; text: string };

export interface PerformOptions {
  /** Aborted when the call timed out: remaining steps (and characters) are not sent. */
  signal: AbortSignal;
  /** Upper bound for waiting on a main-frame navigation the steps caused (never throws). */
  navigationTimeoutMs: number;
  /**
   * What to wait for after the steps when nothing navigated: `task` = one page task (events
   * handled), `frame` = the next rendered frame (compositor scrolls applied).
   */
  settle: 'task' | 'frame';
}

export interface InputOutcome {
  /** A new main-frame document was committed because of the action (and awaited). */
  navigated: boolean;
}

export interface ViewportInfo {
  width: number;
  height: number;
  deviceScaleFactor: number;
}

export interface ScreenshotOptions {
  hideCaret?: boolean;
}

export interface Screenshot {
  jpeg: Uint8Array;
  meta: ScreenshotMeta;
}

export interface BrowserStatus {
  connected: boolean;
  version: string | null;
  /** False once the page crashed or closed. */
  pageAlive: boolean;
}

/** The requests a batch caused (browser/network-log.ts); absent on a surface without a network view. */
export interface NetworkEvidenceSource {
  /** Marks a batch's start; earlier requests are never reported again. Returns the mark. */
  mark(): number;
  /**
   * The requests started since `mark`, after waiting up to `settleMs` for those still running
   * (they are reported `pending` when they have not ended by then). Never rejects.
   */
  since(mark: number, settleMs: number): Promise<NetworkEvidence>;
}

/**
 * The one page the jail-service drives. Methods may hang while the renderer is busy; callers bound
 * every call (tools/with-timeout.ts) and then call `interrupt()`. `viewport()` and `status()` never
 * talk to the renderer, so they answer even while it is wedged.
 */
export interface PageDriver {
  /** The emulated CSS viewport and scale factor as configured (no CDP round trip). */
  viewport(): ViewportInfo;
  status(): BrowserStatus;
  /** The main frame's last known URL (no CDP round trip). */
  currentUrl(): string;
  /**
   * A JPEG of the visible viewport; geometry is read from the page on every call. `hideCaret`
   * leaves a text field's caret out (a surface without one ignores it).
   */
  screenshot(quality: number, options?: ScreenshotOptions): Promise<Screenshot>;
  state(): Promise<PageState>;
  elements(): Promise<ElementsResponse>;
  /** Runs input steps in order with no delays; waits for a navigation only if one was requested. */
  perform(steps: readonly InputStep[], options: PerformOptions): Promise<InputOutcome>;
  /** `page.goto(url)` until `load`; throws NavigationFailedError (the tab stays open). */
  navigate(url: string, timeoutMs: number): Promise<InputOutcome>;
  /** History back until `load`; `{ navigated: false }` when there is no earlier entry. */
  goBack(timeoutMs: number): Promise<InputOutcome>;
  /**
   * Where `action` would land on the active page now: frames, element and destination (POST
   * /landing). Reads only; never dispatches input.
   */
  landing(action: Action): Promise<LandingResponse>;
  /**
   * Inserts a secret into the focused element in one step when `guard` allows that element
   * (its frame's origin, its field kind or autocomplete token), then masks the element in every
   * screenshot and screencast frame until its document goes away. Throws FocusMismatchError
   * with nothing typed otherwise.
   */
  typeSecret(text: string, guard: SecretGuard): Promise<void>;
  /**
   * A clean browser for the next task: every tab but the first closed, cookies, cache and the
   * storage of every origin seen cleared, masks forgotten, the first tab on about:blank.
   */
  reset(timeoutMs: number): Promise<void>;
  /** The network evidence of every tab (and its frames); absent: none is reported. */
  readonly network?: NetworkEvidenceSource | undefined;
  /** Stops JavaScript running in the page (`Runtime.terminateExecution`). Must not throw. */
  interrupt(): Promise<void>;
  /** Stops the browser it launched, or disconnects from an attached one. Idempotent. */
  close(): Promise<void>;
}

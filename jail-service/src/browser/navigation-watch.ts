// Watches the main frame while an input action runs, so the action waits for a page load only
// when it really started a navigation (link click, form submit, script redirect) — no sleeps.
import type { Frame, HTTPRequest, Page } from 'puppeteer-core';

export interface NavigationWatch {
  /** True once a main-frame navigation request was seen since the watch started. */
  requested(): boolean;
  /** Resolves when the first main-frame navigation request is seen (never rejects). */
  readonly whenRequested: Promise<void>;
  /**
   * Waits until the requested navigation has committed and fired `load`, or ended without a new
   * document (204, download, aborted), or `timeoutMs` passed. Resolves true when a new document
   * committed. Never rejects; resolves false at once when nothing was requested.
   */
  settle(timeoutMs: number): Promise<boolean>;
  /** Removes the listeners. */
  dispose(): void;
}

export function isMainFrameNavigation(page: Page, request: HTTPRequest): boolean {
  return request.isNavigationRequest() && request.frame() === page.mainFrame();
}

/** Starts watching `page`; call before dispatching the input, dispose after settling. */
export function watchNavigation(page: Page): NavigationWatch {
  const pending = new Set<HTTPRequest>();
  let wasRequested = false;
  let committed = false;
  let outcome: boolean | undefined;
  let decide: (navigated: boolean) => void = () => {};
  const decided = new Promise<boolean>((resolve) => {
    decide = (navigated) => {
      if (outcome !== undefined) return;
      outcome = navigated;
      resolve(navigated);
    };
  });
  let markRequested: () => void = () => {};
  const whenRequested = new Promise<void>((resolve) => {
    markRequested = resolve;
  });

  const onRequest = (request: HTTPRequest) => {
    if (!isMainFrameNavigation(page, request)) return;
    wasRequested = true;
    pending.add(request);
    markRequested();
  };
  const onRequestFailed = (request: HTTPRequest) => {
    if (!pending.delete(request)) return;
    // Network errors commit an error page (load follows); ERR_ABORTED (204, download, replaced)
    // commits nothing, so nothing more happens unless another navigation is still pending.
    const aborted = request.failure()?.errorText.includes('ERR_ABORTED') ?? false;
    if (aborted && pending.size === 0 && !committed) decide(false);
  };
  const onRequestFinished = (request: HTTPRequest) => {
    pending.delete(request);
  };
  const onFrameNavigated = (frame: Frame) => {
    if (wasRequested && frame === page.mainFrame()) committed = true;
  };
  const onLoad = () => {
    if (committed) decide(true);
  };

  page.on('request', onRequest);
  page.on('requestfailed', onRequestFailed);
  page.on('requestfinished', onRequestFinished);
  page.on('framenavigated', onFrameNavigated);
  page.on('load', onLoad);

  return {
    requested: () => wasRequested,
    whenRequested,
    async settle(timeoutMs) {
      if (!wasRequested) return false;
      if (outcome !== undefined) return outcome;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(committed), timeoutMs);
      });
      try {
        return await Promise.race([decided, timedOut]);
      } finally {
        clearTimeout(timer);
      }
    },
    dispose() {
      page.off('request', onRequest);
      page.off('requestfailed', onRequestFailed);
      page.off('requestfinished', onRequestFinished);
      page.off('framenavigated', onFrameNavigated);
      page.off('load', onLoad);
    },
  };
}

// Adapter: the fast helper tab for writes into a fresh browser (session import). The tab is
// created directly at the origin — one renderer start instead of two — while a browser-level Fetch
// interception answers that tab's document with our own empty page (a per-call nonce as its title)
// and fails its other requests; requests of any other tab pass through untouched. The agent's
// page is never navigated. A document that is not ours (e.g. served by a service worker the
// origin registered earlier in this profile) is refused before anything is written.
import { randomUUID } from 'node:crypto';
import { sleep } from '@clawdie/kit/timing';
import type { CDPSession } from 'puppeteer-core';
import { ActionFailedError } from '../errors.js';

interface PausedRequest {
  requestId: string;
  frameId: string;
  resourceType: string;
}

export interface OriginSeedTabs {
  /** Runs `each` in a fresh tab on `${origin}/` (our document) per origin, one after another. */
  forEach<T>(
    origins: readonly string[],
    each: (cdp: CDPSession, origin: string) => Promise<T>,
  ): Promise<T[]>;
}

/** `root` is a CDP session on the browser target (Fetch there sees every tab's requests). */
export function createOriginSeedTabs(
  root: () => Promise<CDPSession>,
  timeoutMs: number,
): OriginSeedTabs {
  async function inTab<T>(
    cdp: CDPSession,
    origin: string,
    each: (tab: CDPSession, origin: string) => Promise<T>,
  ): Promise<T> {
    const nonce = `clawdie-session-${randomUUID()}`;
    const body = Buffer.from(`<!doctype html><title>${nonce}</title>`).toString('base64');
    let resolveTarget: (id: string) => void = () => undefined;
    const target = new Promise<string>((resolve) => {
      resolveTarget = resolve;
    });
    const onPaused = (event: PausedRequest) => {
      void target
        .then((targetId) => {
          const { requestId } = event;
          if (event.frameId !== targetId) return cdp.send('Fetch.continueRequest', { requestId });
          if (event.resourceType !== 'Document')
            return cdp.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' });
          return cdp.send('Fetch.fulfillRequest', {
            requestId,
            responseCode: 200,
            responseHeaders: [{ name: 'content-type', value: 'text/html' }],
            body,
          });
        })
        .catch(() => undefined);
    };
    cdp.on('Fetch.requestPaused', onPaused);
    let targetId: string | undefined;
    try {
      await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] });
      ({ targetId } = await cdp.send('Target.createTarget', {
        url: `${origin}/`,
        background: true,
      }));
      resolveTarget(targetId);
      const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
      const tab = cdp.connection()?.session(sessionId);
      if (!tab) throw new ActionFailedError('the session tab could not be attached');
      await untilOurs(tab, origin, nonce, timeoutMs);
      return await each(tab, origin);
    } finally {
      cdp.off('Fetch.requestPaused', onPaused);
      await cdp.send('Fetch.disable').catch(() => undefined);
      if (targetId) void cdp.send('Target.closeTarget', { targetId }).catch(() => undefined);
    }
  }

  return {
    async forEach(origins, each) {
      if (origins.length === 0) return [];
      const cdp = await root();
      const results = [];
      for (const origin of origins) results.push(await inTab(cdp, origin, each));
      return results;
    },
  };
}

/** Waits until the tab shows our loaded document of `origin`; refuses any other document. */
async function untilOurs(tab: CDPSession, origin: string, nonce: string, timeoutMs: number) {
  const probe = `location.origin === ${JSON.stringify(origin)} && document.readyState === 'complete' ? document.title : ''`;
  const end = Date.now() + timeoutMs;
  for (;;) {
    const reply = await tab.send('Runtime.evaluate', { expression: probe, returnByValue: true });
    const title = reply.result.value as string;
    if (title === nonce) return;
    if (title !== '' && title !== undefined)
      throw new ActionFailedError(`the session tab for ${origin} did not load our document`);
    if (Date.now() > end)
      throw new ActionFailedError(
        `the session tab for ${origin} did not load within ${timeoutMs} ms`,
      );
    await sleep(5);
  }
}

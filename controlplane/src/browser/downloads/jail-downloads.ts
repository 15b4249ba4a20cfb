// Adapter: a browser's downloads over its jail-service's `/downloads` routes (contract:
// @clawdie/kit/jail-api `downloadRoutes`). The only way the controlplane reaches a downloaded file:
// never through the clone's filesystem, so the same path serves a FreeBSD jail.
import { type DownloadEntry, type DownloadPolicy, downloadListSchema } from '@clawdie/kit/jail-api';
import { OperatorError } from '../../errors.js';
import type { JailEndpoint } from '../provider/browser-provider.js';
import { jailCall } from '../provider/jail-call.js';

/** Bound on the small calls (policy, list, clear); a file's copy has its own. */
const CALL_TIMEOUT_MS = 10_000;

export interface BrowserDownloads {
  /** A fresh per-task directory under this policy (off: the browser denies every download). */
  configure(policy: DownloadPolicy): Promise<void>;
  list(signal?: AbortSignal): Promise<DownloadEntry[]>;
  /** The bytes of one completed download. */
  read(id: string, signal: AbortSignal): Promise<ReadableStream<Uint8Array>>;
  /** Cancels what is in progress, deletes the task's directory, denies downloads again. */
  clear(): Promise<void>;
}

export function jailDownloads(
  service: JailEndpoint,
  fetchImpl = service.fetch ?? fetch,
): BrowserDownloads {
  const base = service.url.replace(/\/+$/, '');
  const request = jailCall(service, fetchImpl);
  const call = (path: string, init: RequestInit, signal?: AbortSignal) =>
    request(path, init, { timeoutMs: CALL_TIMEOUT_MS, signal });
  const drained = async (response: Response) => {
    await response.body?.cancel();
  };
  return {
    async configure(policy) {
      const body = JSON.stringify(policy);
      const headers = { 'content-type': 'application/json' };
      await drained(await call('/downloads/policy', { method: 'PUT', headers, body }));
    },
    async list(signal) {
      const response = await call('/downloads', {}, signal);
      const parsed = downloadListSchema.safeParse(await response.json().catch(() => null));
      if (!parsed.success)
        throw new OperatorError('OPERATOR_BAD_RESPONSE', 'jail-service /downloads: bad listing');
      return parsed.data.downloads;
    },
    async read(id, signal) {
      const response = await fetchImpl(`${base}/downloads/${encodeURIComponent(id)}`, {
        headers: { authorization: `Bearer ${service.token}` },
        signal,
      });
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        throw new OperatorError(
          'OPERATOR_BAD_RESPONSE',
          `jail-service /downloads/${id}: HTTP ${response.status}`,
        );
      }
      return response.body;
    },
    async clear() {
      await drained(await call('/downloads', { method: 'DELETE' }));
    },
  };
}

// Adapter: a clone's login state over the jail-service's `/session/*` routes. Bundles hold cookie,
// localStorage and IndexedDB values: this client never logs them, and its errors carry no body text.
import {
  errorBodySchema,
  type SessionBundle,
  type SessionImportResponse,
  sessionBundleSchema,
  sessionImportResponseSchema,
} from '@clawdie/kit/jail-api';
import type { z } from 'zod';
import { OperatorError } from '../../errors.js';

/** Moves a browser's login state (the jail-service session contract). */
export interface SessionTransfer {
  /** The cookies of `origins`' hosts and their localStorage and IndexedDB. */
  exportSession(origins: readonly string[], signal?: AbortSignal): Promise<SessionBundle>;
  /** Sets `bundle` in the browser; call before its first navigation. Answers counts only. */
  importSession(bundle: SessionBundle, signal?: AbortSignal): Promise<SessionImportResponse>;
}

export interface JailSessionClientOptions {
  url: string;
  token: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export function createJailSessionClient(options: JailSessionClientOptions): SessionTransfer {
  const base = options.url.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;

  async function post<T>(path: string, body: unknown, schema: z.ZodType<T>, signal?: AbortSignal) {
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      const reason = timeout.aborted ? `no answer within ${timeoutMs} ms` : 'request failed';
      throw new OperatorError('OPERATOR_UNAVAILABLE', `jail-service ${path}: ${reason}`, error);
    }
    const parsed = await response.json().catch(() => undefined);
    if (!response.ok) {
      const error = errorBodySchema.safeParse(parsed);
      const code = error.success ? error.data.error.code : `HTTP ${response.status}`;
      const kind = response.status >= 500 ? 'OPERATOR_UNAVAILABLE' : 'OPERATOR_REJECTED';
      throw new OperatorError(kind, `jail-service ${path}: ${code}`);
    }
    const valid = schema.safeParse(parsed);
    if (!valid.success)
      throw new OperatorError('OPERATOR_BAD_RESPONSE', `jail-service ${path}: unexpected body`);
    return valid.data;
  }

  return {
    exportSession: (origins, signal) =>
      post('/session/export', { origins }, sessionBundleSchema, signal),
    importSession: (bundle, signal) =>
      post('/session/import', bundle, sessionImportResponseSchema, signal),
  };
}

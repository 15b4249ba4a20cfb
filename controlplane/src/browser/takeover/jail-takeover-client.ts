// Client of the jail-service takeover routes: `GET /signals` and `POST /input` (contract ./api).
import {
  type InputReport,
  inputReportSchema,
  type PageSignals,
  pageSignalsSchema,
  type SupervisorInput,
} from '@clawdie/kit/jail-api';
import type { z } from 'zod';
import { OperatorError } from '../../errors.js';
import type { JailEndpoint } from '../provider/browser-provider.js';

export interface JailTakeoverClient {
  signals(knownOrigins: readonly string[], signal?: AbortSignal): Promise<PageSignals>;
  input(events: readonly SupervisorInput[], signal?: AbortSignal): Promise<InputReport>;
}

/** Rejects with OperatorError on transport failures and unusable replies. */
export function createJailTakeoverClient(
  endpoint: JailEndpoint,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): JailTakeoverClient {
  const base = endpoint.url.replace(/\/+$/, '');
  const doFetch = options.fetch ?? endpoint.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  async function call<T>(
    path: string,
    schema: z.ZodType<T>,
    init: RequestInit,
    signal?: AbortSignal,
  ) {
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${endpoint.token}`, 'content-type': 'application/json' },
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      const message = `jail-service ${path}: ${(error as Error).message}`;
      throw new OperatorError('OPERATOR_UNAVAILABLE', message, error);
    }
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!response.ok || !parsed.success)
      throw new OperatorError(
        'OPERATOR_BAD_RESPONSE',
        `jail-service ${path}: HTTP ${response.status}`,
      );
    return parsed.data;
  }
  return {
    signals: (known, signal) => {
      const query = known.length > 0 ? `?known_origins=${encodeURIComponent(known.join(','))}` : '';
      return call(`/signals${query}`, pageSignalsSchema, { method: 'GET' }, signal);
    },
    input: (events, signal) =>
      call(
        '/input',
        inputReportSchema,
        { method: 'POST', body: JSON.stringify({ events }) },
        signal,
      ),
  };
}

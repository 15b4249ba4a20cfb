// One call to a clone's jail-service beside the operator's own (downloads, uploads): bearer auth,
// a bound, and a typed failure — unreachable (OPERATOR_UNAVAILABLE) or refused
// (OPERATOR_BAD_RESPONSE, with the start of its body).
import { OperatorError } from '../../errors.js';
import type { JailEndpoint } from './browser-provider.js';

export type JailCall = (
  path: string,
  init: RequestInit,
  options: { timeoutMs: number; signal?: AbortSignal | undefined },
) => Promise<Response>;

export function jailCall(
  service: JailEndpoint,
  fetchImpl: typeof fetch = service.fetch ?? fetch,
): JailCall {
  const base = service.url.replace(/\/+$/, '');
  return async (path, init, { timeoutMs, signal }) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await fetchImpl(`${base}${path}`, {
        ...init,
        headers: { ...init.headers, authorization: `Bearer ${service.token}` },
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new OperatorError('OPERATOR_UNAVAILABLE', `jail-service ${path}: ${reason}`, error);
    }
    if (!response.ok) {
      const body = await response.text().catch(() => '');
      throw new OperatorError(
        'OPERATOR_BAD_RESPONSE',
        `jail-service ${path}: HTTP ${response.status} ${body.slice(0, 200)}`,
      );
    }
    return response;
  };
}

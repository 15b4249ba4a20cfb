// Polls the in-jail jail-service's health endpoint with the task's bearer token.

/** One health probe: true when the service answered 2xx. Must not throw on network errors. */
export type HealthCheck = (
  serviceUrl: string,
  token: string,
  signal?: AbortSignal,
) => Promise<boolean>;

type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** The real adapter: `GET <url>/health` with `Authorization: Bearer <token>`, 2 s per attempt. */
export function createFetchHealthCheck(fetchImpl: FetchLike = fetch): HealthCheck {
  return async function healthCheck(serviceUrl, token, signal) {
    const timeout = AbortSignal.timeout(2000);
    try {
      const response = await fetchImpl(`${serviceUrl}/health`, {
        headers: { authorization: `Bearer ${token}` },
        signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
      });
      await response.body?.cancel();
      return response.ok;
    } catch {
      return false;
    }
  };
}

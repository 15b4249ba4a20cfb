// Client of the jail-service's `GET /screencast` (multipart/x-mixed-replace JPEG frames).
import { OperatorError } from '../../errors.js';

/** Opens the live JPEG feed of the browser; the response body streams until `signal` aborts. */
export interface ScreencastFeed {
  open(signal: AbortSignal): Promise<Response>;
}

export interface ScreencastFeedOptions {
  /** Base URL of the jail-service. */
  url: string;
  token: string;
  /** Lowest frame rate the jail-service keeps up (it repeats the last frame on a still page). */
  fps?: number;
  quality?: number;
  fetch?: typeof fetch;
}

/** Rejects with OperatorError when the jail-service cannot be reached or refuses. */
export function createScreencastFeed(options: ScreencastFeedOptions): ScreencastFeed {
  const doFetch = options.fetch ?? fetch;
  const query = new URLSearchParams({
    fps: String(options.fps ?? 4),
    quality: String(options.quality ?? 60),
  });
  const target = `${options.url.replace(/\/+$/, '')}/screencast?${query}`;
  return {
    async open(signal) {
      let response: Response;
      try {
        response = await doFetch(target, {
          headers: { authorization: `Bearer ${options.token}` },
          signal,
        });
      } catch (error) {
        throw new OperatorError(
          'OPERATOR_UNAVAILABLE',
          `jail-service /screencast: ${(error as Error).message}`,
          error,
        );
      }
      if (!response.ok || !response.body) {
        const detail = await response.text().catch(() => '');
        throw new OperatorError(
          response.status >= 500 ? 'OPERATOR_UNAVAILABLE' : 'OPERATOR_REJECTED',
          `jail-service /screencast: HTTP ${response.status}${detail ? ` ${detail.slice(0, 300)}` : ''}`,
        );
      }
      return response;
    },
  };
}

// Adapter: the BrowserOperator over the jail-service HTTP contract (@clawdie/kit/jail-api).
import {
  type Action,
  type ActionResult,
  type ActionsResponse,
  actionsResponseSchema,
  errorBodySchema,
  type LandingResponse,
  landingResponseSchema,
  type NetworkEvidence,
  type PageState,
  pageStateSchema,
  screenshotHeaders,
  screenshotMetaSchema,
} from '@clawdie/kit/jail-api';
import type { z } from 'zod';
import { isAbortError, OperatorError } from '../../errors.js';
import { skippedResults, splitActionBatches } from './action-batches.js';
import type { BrowserOperator, Screenshot } from './browser-operator.js';
import { mergeEvidence } from './network-evidence.js';

export interface ClawdieBrowserOperatorOptions {
  /** Base URL of the jail-service, e.g. `http://127.0.0.1:9230`. */
  url: string;
  token: string;
  /** Bound on one HTTP exchange; action batches get this plus their own duration bound. */
  timeoutMs?: number;
  /** JPEG quality to ask for; the service default when unset. */
  quality?: number;
  fetch?: typeof fetch;
}

/**
 * Creates the HTTP operator. Stateless apart from connection reuse by fetch, and from knowing
 * that the service predates `?caret=` once it refused it.
 */
export function createClawdieBrowserOperator(
  options: ClawdieBrowserOperatorOptions,
): BrowserOperator {
  const base = options.url.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const auth = { authorization: `Bearer ${options.token}` };
  /** False once the service refused `?caret=` (it predates it). */
  let caretKnown = true;

  async function request(path: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await fetchOnce(path, init, combined).catch((error: unknown) => {
        // A pooled connection the service closed (after a 413, an idle timeout, a restart) fails
        // the first request sent on it. Reads are safe to repeat: once, on a fresh connection.
        if (combined.aborted || (init.method ?? 'GET') !== 'GET') throw error;
        return fetchOnce(path, init, combined);
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      const reason = timeout.aborted ? `no answer within ${timeoutMs} ms` : describe(error);
      throw new OperatorError('OPERATOR_UNAVAILABLE', `jail-service ${path}: ${reason}`, error);
    }
    if (response.ok) return response;
    const text = await response.text().catch(() => '');
    const parsed = errorBodySchema.safeParse(safeJson(text));
    const message = parsed.success
      ? `${parsed.data.error.code}: ${parsed.data.error.message}`
      : `HTTP ${response.status}`;
    const code = response.status >= 500 ? 'OPERATOR_UNAVAILABLE' : 'OPERATOR_REJECTED';
    throw new OperatorError(code, `jail-service ${path}: ${message}`);
  }

  function fetchOnce(path: string, init: RequestInit, signal: AbortSignal): Promise<Response> {
    return doFetch(`${base}${path}`, { ...init, signal });
  }

  /** One `POST /actions` of a batch already within the service's limits. */
  async function postActions(actions: Action[], signal?: AbortSignal): Promise<ActionsResponse> {
    const response = await request(
      '/actions',
      {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ actions }),
      },
      signal,
    );
    return json(response, actionsResponseSchema, '/actions');
  }

  async function json<T>(response: Response, schema: z.ZodType<T>, path: string): Promise<T> {
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) {
      throw new OperatorError(
        'OPERATOR_BAD_RESPONSE',
        `jail-service ${path}: unexpected response body`,
      );
    }
    return parsed.data;
  }

  return {
    async screenshot(signal, shotOptions): Promise<Screenshot> {
      const path = (hideCaret: boolean) => {
        const query = new URLSearchParams();
        if (options.quality) query.set('quality', String(options.quality));
        if (hideCaret) query.set('caret', 'hide');
        return query.size > 0 ? `/screenshot?${query}` : '/screenshot';
      };
      const hide = shotOptions?.hideCaret === true && caretKnown;
      const response = await request(path(hide), { headers: auth }, signal).catch((error) => {
        // A jail-service older than `caret` (a fleet host not yet upgraded) refuses the parameter:
        // its captures keep the caret, as before.
        if (!hide || !refusedCaret(error)) throw error;
        caretKnown = false;
        return request(path(false), { headers: auth }, signal);
      });
      const header = (name: string) => Number(response.headers.get(name));
      const meta = screenshotMetaSchema.safeParse({
        viewportWidth: header(screenshotHeaders.viewportWidth),
        viewportHeight: header(screenshotHeaders.viewportHeight),
        devicePixelRatio: header(screenshotHeaders.devicePixelRatio),
        imageWidth: header(screenshotHeaders.imageWidth),
        imageHeight: header(screenshotHeaders.imageHeight),
      });
      const jpeg = Buffer.from(await response.arrayBuffer());
      if (!meta.success || jpeg.length === 0) {
        throw new OperatorError(
          'OPERATOR_BAD_RESPONSE',
          'jail-service /screenshot: missing geometry or image',
        );
      }
      return { jpeg, meta: meta.data };
    },
    /**
     * Runs `actions` in order as one or more requests within the service's count and size
     * limits; after a failed action the rest are reported `skipped`, as in one batch.
     */
    async execute(actions: Action[], signal): Promise<ActionsResponse> {
      const results: ActionResult[] = [];
      let last: ActionsResponse | null = null;
      let evidence: NetworkEvidence | undefined;
      for (const batch of splitActionBatches(actions)) {
        last = await postActions(batch.actions, signal);
        evidence = mergeEvidence(evidence, last.evidence);
        results.push(
          ...last.results.map((result) => ({ ...result, index: result.index + batch.offset })),
        );
        if (last.results.some((result) => result.status === 'error')) {
          results.push(...skippedResults(actions, batch.offset + batch.actions.length));
          break;
        }
      }
      if (!last) return postActions(actions, signal);
      return { results, state: last.state, ...(evidence ? { evidence } : {}) };
    },
    async landing(action: Action, signal): Promise<LandingResponse> {
      const response = await request(
        '/landing',
        {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ action }),
        },
        signal,
      );
      return json(response, landingResponseSchema, '/landing');
    },
    async state(signal): Promise<PageState> {
      const response = await request('/state', { headers: auth }, signal);
      return json(response, pageStateSchema, '/state');
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  if (isAbortError(error)) return 'request aborted';
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/** Whether a screenshot request was refused for its `caret` parameter. */
function refusedCaret(error: unknown): boolean {
  return (
    error instanceof OperatorError &&
    error.code === 'OPERATOR_REJECTED' &&
    /BAD_REQUEST: invalid query\b.*caret/.test(error.message)
  );
}

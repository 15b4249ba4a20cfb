// Adapter: a PageProbe over the jail-service HTTP contract (GET /state, GET /elements).
// Page "text" is the title plus the visible interactive elements' text and names: the
// jail-service has no whole-document text route yet, so plain paragraphs are not seen
// (docs/waits.md, "Limits").
import {
  elementsResponseSchema,
  type PageElement,
  type PageState,
  pageStateSchema,
} from '@clawdie/kit/jail-api';
import type { z } from 'zod';
import { OperatorError } from '../../errors.js';
import type {
  BrowserOperator,
  Screenshot,
  ScreenshotOptions,
} from '../operator/browser-operator.js';
import type { FrameSource, PageProbe } from './wait-types.js';

export interface JailPageProbeOptions {
  url: string;
  token: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export function createJailPageProbe(options: JailPageProbeOptions): PageProbe {
  const base = options.url.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  async function get<T>(path: string, schema: z.ZodType<T>, signal?: AbortSignal): Promise<T> {
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        headers: { authorization: `Bearer ${options.token}` },
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new OperatorError(
        'OPERATOR_UNAVAILABLE',
        `jail-service ${path}: ${(error as Error).message}`,
        error,
      );
    }
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!response.ok || !parsed.success) {
      throw new OperatorError(
        'OPERATOR_BAD_RESPONSE',
        `jail-service ${path}: HTTP ${response.status}`,
      );
    }
    return parsed.data;
  }
  const elements = async (signal?: AbortSignal): Promise<PageElement[]> =>
    (await get('/elements', elementsResponseSchema, signal)).elements;
  return {
    state: (signal): Promise<PageState> => get('/state', pageStateSchema, signal),
    elements,
    async text(signal) {
      const [state, list] = await Promise.all([
        get('/state', pageStateSchema, signal),
        elements(signal),
      ]);
      return [state.title, ...list.flatMap((element) => [element.text, element.name ?? ''])].join(
        '\n',
      );
    },
  };
}

/**
 * Frames of a BrowserOperator's screen (also the DesktopOperator: same port). A wait's frames
 * leave the caret out (`hideCaret`); frames another reader shares keep what the model sees.
 */
export function operatorFrames(
  operator: Pick<BrowserOperator, 'screenshot'>,
  key: string,
  options?: ScreenshotOptions,
): FrameSource {
  return {
    key,
    capture: async (signal) => ((await operator.screenshot(signal, options)) as Screenshot).jpeg,
  };
}

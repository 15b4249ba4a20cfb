// HostdClient: the controlplane's typed, response-validating client for hostd's HTTP API.
// `fetch` is injectable, so tests can pass another app's `request` (house-style §3.13.7).
import type { z } from 'zod';
import {
  type Clone,
  CloneListSchema,
  CloneSchema,
  type CreateCloneRequest,
  type DestroyCloneResponse,
  DestroyCloneResponseSchema,
  type EgressRefusal,
  EgressRefusalListSchema,
  ErrorResponseSchema,
  type Health,
  HealthSchema,
} from './schema.js';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface HostdClientOptions {
  /** e.g. `http://127.0.0.1:7070`. */
  baseUrl: string;
  token: string;
  fetch?: FetchLike;
  /** Per request; clone creation can take seconds when the pool is empty. Default 60 s. */
  timeoutMs?: number;
}

/** A non-2xx answer from hostd (`code` from its error body) or an invalid response. */
export class HostdClientError extends Error {
  readonly code: string;
  readonly status: number;
  constructor(code: string, status: number, message: string) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export class HostdClient {
  readonly #options: HostdClientOptions;
  readonly #fetch: FetchLike;

  constructor(options: HostdClientOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  health(): Promise<Health> {
    return this.#call('GET', '/health', HealthSchema);
  }

  /** A ready clone for the task (its jail-service answers); destroy it when the task ends. */
  createClone(request: CreateCloneRequest): Promise<Clone> {
    return this.#call('POST', '/clones', CloneSchema, request);
  }

  getClone(name: string): Promise<Clone> {
    return this.#call('GET', `/clones/${encodeURIComponent(name)}`, CloneSchema);
  }

  async listClones(taskId?: string): Promise<Clone[]> {
    const query = taskId ? `?taskId=${encodeURIComponent(taskId)}` : '';
    return (await this.#call('GET', `/clones${query}`, CloneListSchema)).clones;
  }

  /** Idempotent; `leftovers` empty means hostd verified the clone gone from the OS. */
  destroyClone(name: string): Promise<DestroyCloneResponse> {
    return this.#call('DELETE', `/clones/${encodeURIComponent(name)}`, DestroyCloneResponseSchema);
  }

  async egressRefusals(options: { name?: string; after?: number } = {}): Promise<EgressRefusal[]> {
    const path = options.name
      ? `/clones/${encodeURIComponent(options.name)}/egress-refusals`
      : `/egress-refusals?after=${options.after ?? 0}`;
    return (await this.#call('GET', path, EgressRefusalListSchema)).refusals;
  }

  async #call<T extends z.ZodType>(
    method: string,
    path: string,
    schema: T,
    body?: unknown,
  ): Promise<z.output<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.#options.token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await this.#fetch(`${this.#options.baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(this.#options.timeoutMs ?? 60_000),
    });
    const json: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const error = ErrorResponseSchema.safeParse(json);
      const code = error.success ? error.data.error.code : 'HTTP_ERROR';
      const message = error.success ? error.data.error.message : `HTTP ${response.status}`;
      throw new HostdClientError(code, response.status, `${method} ${path}: ${message}`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new HostdClientError(
        'INVALID_RESPONSE',
        response.status,
        `${method} ${path}: ${parsed.error.message}`,
      );
    }
    return parsed.data;
  }
}

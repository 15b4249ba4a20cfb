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
  EgressRefusalSchema,
  ErrorResponseSchema,
  type Health,
  HealthSchema,
  LEASE_HEADER,
  type LeasedClone,
  LeasedCloneSchema,
  type RevokeAllResponse,
  RevokeAllResponseSchema,
  type RevokeLeasesRequest,
  serviceRelayPath,
} from './schema.js';
import { readSseEvents } from './sse-events.js';

/** A lease on one clone: what every per-clone call names. */
export interface CloneLeaseRef {
  name: string;
  leaseId: string;
}

/**
 * The leased clone's jail-service as reached through hostd's relay (`hostdBaseUrl` + the relay
 * path, hostd's own token): for a caller that cannot route to `clone.service.url`, which only the
 * clone's host routes. Use it exactly as `clone.service`.
 */
export function relayEndpoint(
  hostdBaseUrl: string,
  hostdToken: string,
  lease: CloneLeaseRef,
): { url: string; token: string } {
  return {
    url: `${hostdBaseUrl.replace(/\/+$/, '')}${serviceRelayPath(lease)}`,
    token: hostdToken,
  };
}

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

  /** A ready clone for the task under a new lease (its jail-service answers); destroy it when done. */
  createClone(request: CreateCloneRequest): Promise<LeasedClone> {
    return this.#call('POST', '/clones', LeasedCloneSchema, request);
  }

  getClone(lease: CloneLeaseRef): Promise<Clone> {
    return this.#call('GET', clonePath(lease), CloneSchema, undefined, lease);
  }

  async listClones(taskId?: string): Promise<Clone[]> {
    const query = taskId ? `?taskId=${encodeURIComponent(taskId)}` : '';
    return (await this.#call('GET', `/clones${query}`, CloneListSchema)).clones;
  }

  /** Ends the lease and destroys its clone; `leftovers` empty means verified gone from the OS. */
  destroyClone(lease: CloneLeaseRef): Promise<DestroyCloneResponse> {
    return this.#call('DELETE', clonePath(lease), DestroyCloneResponseSchema, undefined, lease);
  }

  /** What the clone's proxy refused under this lease, after `after` (a seq). */
  async egressRefusals(lease: CloneLeaseRef, after = 0): Promise<EgressRefusal[]> {
    const path = `${clonePath(lease)}/egress-refusals?after=${after}`;
    return (await this.#call('GET', path, EgressRefusalListSchema, undefined, lease)).refusals;
  }

  /**
   * Follows the lease's refusals live, calling `onRefusal` for each (in order, from `after`), until
   * hostd says the lease ended (resolves `{ ended: true }`) or the stream breaks or `signal` aborts
   * (resolves `{ ended: false }`: resume with `after` = `lastSeq`). `onRefusal` must not throw.
   */
  async followEgressRefusals(
    lease: CloneLeaseRef,
    options: { after?: number; signal?: AbortSignal; onRefusal: (refusal: EgressRefusal) => void },
  ): Promise<{ ended: boolean; lastSeq: number }> {
    let lastSeq = options.after ?? 0;
    try {
      const response = await this.#fetch(
        `${this.#options.baseUrl}${clonePath(lease)}/egress-refusals/stream?after=${lastSeq}`,
        {
          headers: { ...this.#headers(lease), accept: 'text/event-stream' },
          ...(options.signal ? { signal: options.signal } : {}),
        },
      );
      if (!response.ok || !response.body) {
        await this.#fail('GET', 'egress-refusals/stream', response);
      }
      for await (const event of readSseEvents(response.body as ReadableStream<Uint8Array>)) {
        if (event.event === 'lease-ended') return { ended: true, lastSeq };
        if (event.event !== 'refusal') continue;
        const refusal = EgressRefusalSchema.parse(JSON.parse(event.data));
        if (refusal.leaseId !== lease.leaseId || refusal.seq <= lastSeq) continue;
        lastSeq = refusal.seq;
        options.onRefusal(refusal);
      }
    } catch (error) {
      if (error instanceof HostdClientError && error.status < 500) throw error;
    }
    return { ended: false, lastSeq };
  }

  /** Ends every task lease on hostd and destroys its clone (a restarted controlplane's orphans). */
  revokeAllLeases(): Promise<RevokeAllResponse> {
    return this.#call('POST', '/leases/revoke-all', RevokeAllResponseSchema, {});
  }

  /**
   * Ends exactly the task leases of `holders` (and, with `unnamed`, those without a holder),
   * destroying their clones; every other lease stays. A hostd older than holders answers 404.
   */
  revokeLeases(request: RevokeLeasesRequest): Promise<RevokeAllResponse> {
    return this.#call('POST', '/leases/revoke', RevokeAllResponseSchema, request);
  }

  #headers(lease?: CloneLeaseRef): Record<string, string> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.#options.token}` };
    if (lease) headers[LEASE_HEADER] = lease.leaseId;
    return headers;
  }

  async #fail(method: string, path: string, response: Response): Promise<never> {
    const json: unknown = await response.json().catch(() => null);
    const error = ErrorResponseSchema.safeParse(json);
    const code = error.success ? error.data.error.code : 'HTTP_ERROR';
    const message = error.success ? error.data.error.message : `HTTP ${response.status}`;
    throw new HostdClientError(code, response.status, `${method} ${path}: ${message}`);
  }

  async #call<T extends z.ZodType>(
    method: string,
    path: string,
    schema: T,
    body?: unknown,
    lease?: CloneLeaseRef,
  ): Promise<z.output<T>> {
    const headers = this.#headers(lease);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await this.#fetch(`${this.#options.baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(this.#options.timeoutMs ?? 60_000),
    });
    if (!response.ok) await this.#fail(method, path, response);
    const json: unknown = await response.json().catch(() => null);
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

function clonePath(lease: CloneLeaseRef): string {
  return `/clones/${encodeURIComponent(lease.name)}`;
}

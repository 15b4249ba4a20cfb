// A wire: one provider's HTTP dialect under the shared client (retries, Retry-After, the
// endpoint's concurrency limit, timeouts: openai-compatible-model.ts). A profile builds the body;
// the wire says where it goes, how it is authenticated, which transport fields it carries and how
// a 2xx reply reads.
import type { WireName, WireReply } from '../../profiles/profile-types.js';

export interface TransportFields {
  model: string;
  maxTokens: number;
  temperature: number;
  /** Ask for a streamed reply (only where the wire `streams`). */
  stream: boolean;
}

/** A 2xx reply body, read. */
export type WireRead =
  | {
      ok: true;
      reply: WireReply;
      /** The provider's stop reason, normalised: `length` when it stopped at the token limit. */
      finishReason: string | null;
      /** True when the reply has neither text nor a call (worth one re-ask). */
      empty: boolean;
      usage: { promptTokens: number; completionTokens: number } | null;
    }
  | { ok: false; message: string };

export interface Wire {
  readonly name: WireName;
  /** Whether the client may ask this wire for an event stream (chat completions only, for now). */
  readonly streams: boolean;
  /** The URL of one request, from the configured base URL (e.g. `…/v1`) and the model name. */
  endpoint(baseUrl: string, model: string): string;
  /** Authentication and protocol headers (content-type included). */
  headers(apiKey: string | null): Record<string, string>;
  /** The body to send: the profile's body plus the wire's transport fields. */
  body(profileBody: Record<string, unknown>, fields: TransportFields): Record<string, unknown>;
  /** Reads a 2xx JSON body. */
  read(json: unknown): WireRead;
}

// Which server answers a chat-completions endpoint, from its own `GET /models` list: vLLM and
// SGLang mark every model `owned_by: "vllm"` / `"sglang"`, llama-server `"llamacpp"`; a bare list
// (id, object, created, owned_by) may be Ollama's, which then says so itself (ollama-version.ts).
// It decides one thing only: whether a self-hosted profile's screenshots may go as WebP (vLLM and
// SGLang open images with Pillow, Ollama from 0.32.14 transcodes WebP for llama-server,
// llama.cpp's stb_image cannot read it). Anything else — another server, a proxy, an error, a
// timeout — is `unknown` and changes nothing. docs/models.md, "Which server is it?".
import { z } from 'zod';
import { readBoundedText } from './bounded-body.js';
import {
  type ModelServer,
  type ProbeGet,
  UNKNOWN_MODEL_SERVER,
  WITH_WEBP,
  WITHOUT_WEBP,
} from './model-server-types.js';
import { ollamaServer } from './ollama-version.js';

export {
  MODEL_SERVER_NAMES,
  type ModelServer,
  type ModelServerKind,
  modelServerName,
  UNKNOWN_MODEL_SERVER,
} from './model-server-types.js';

const KNOWN: Record<string, ModelServer> = {
  vllm: { kind: 'vllm', decodes: WITH_WEBP },
  sglang: { kind: 'sglang', decodes: WITH_WEBP },
  llamacpp: { kind: 'llama.cpp', decodes: WITHOUT_WEBP },
};

const modelListSchema = z.object({
  data: z.array(z.object({ id: z.unknown(), owned_by: z.unknown() }).loose()).min(1),
});

/** The entries of a models list, or null when the body is not one. */
function listEntries(json: unknown) {
  const list = modelListSchema.safeParse(json);
  return list.success ? list.data.data : null;
}

/** The list body read: the entry of the configured model if listed, else every entry must agree. */
export function modelServerOf(json: unknown, model: string): ModelServer {
  const entries = listEntries(json);
  if (!entries) return UNKNOWN_MODEL_SERVER;
  const named = entries.filter((entry) => entry.id === model);
  const owners = new Set((named.length > 0 ? named : entries).map((entry) => entry.owned_by));
  if (owners.size !== 1) return UNKNOWN_MODEL_SERVER;
  const [owner] = owners;
  return (
    (typeof owner === 'string' && Object.hasOwn(KNOWN, owner) && KNOWN[owner]) ||
    UNKNOWN_MODEL_SERVER
  );
}

const BARE_ENTRY_KEYS = new Set(['id', 'object', 'created', 'owned_by']);

/** A list of nothing but id, object, created and owned_by per entry, as Ollama writes it. */
export function isBareModelList(json: unknown): boolean {
  const entries = listEntries(json);
  return (
    !!entries &&
    entries.every((entry) => Object.keys(entry).every((key) => BARE_ENTRY_KEYS.has(key)))
  );
}

export interface ModelServerProbe {
  /** The configured base URL, up to and including `/v1`. */
  baseUrl: string;
  model: string;
  /** The wire's headers (the bearer key: vLLM and SGLang guard `/v1/models` with it). */
  headers: Record<string, string>;
  fetch: typeof fetch;
  /** Bound on the whole probe (default 5 s); a slow or silent server is `unknown`. */
  timeoutMs?: number;
}

const MAX_BODY_BYTES = 1 << 20;

function probeGet(probe: ModelServerProbe, signal: AbortSignal): ProbeGet {
  const { 'content-type': _json, ...keyed } = probe.headers;
  return async (url, withKey) => {
    const response = await probe.fetch(url, {
      headers: { ...(withKey ? keyed : {}), accept: 'application/json, text/plain' },
      signal,
      redirect: 'error',
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return null;
    }
    return readBoundedText(response, MAX_BODY_BYTES);
  };
}

/**
 * Asks the server's `GET <baseUrl>/models` (and, for a bare list, Ollama's own version);
 * never rejects except when `signal` aborts.
 */
export async function identifyModelServer(
  probe: ModelServerProbe,
  signal?: AbortSignal,
): Promise<ModelServer> {
  const bound = AbortSignal.timeout(probe.timeoutMs ?? 5000);
  const get = probeGet(probe, signal ? AbortSignal.any([signal, bound]) : bound);
  const baseUrl = probe.baseUrl.replace(/\/+$/, '');
  try {
    const text = await get(`${baseUrl}/models`, true);
    if (text === null) return UNKNOWN_MODEL_SERVER;
    const json: unknown = JSON.parse(text);
    const known = modelServerOf(json, probe.model);
    if (known.kind !== 'unknown' || !isBareModelList(json)) return known;
    return await ollamaServer(baseUrl, get);
  } catch (error) {
    signal?.throwIfAborted();
    void error; // unreachable, refused, not JSON, or over the bound: not known
    return UNKNOWN_MODEL_SERVER;
  }
}

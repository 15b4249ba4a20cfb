// Which server answers a chat-completions endpoint, from its own `GET /models` list: vLLM and
// SGLang mark every model `owned_by: "vllm"` / `"sglang"`, llama-server `"llamacpp"`. It decides
// one thing only: whether a self-hosted profile's screenshots may go as WebP (vLLM and SGLang
// open images with Pillow, llama.cpp's stb_image cannot read WebP). Anything else — another
// server, a proxy, an error, a timeout — is `unknown` and changes nothing. docs/models.md,
// "Image formats".
import { z } from 'zod';
import type { ModelImageFormat } from '../profiles/profile-types.js';
import { readBoundedText } from './bounded-body.js';

export type ModelServerKind = 'vllm' | 'sglang' | 'llama.cpp' | 'unknown';

export interface ModelServer {
  kind: ModelServerKind;
  /** The image formats the server is known to decode; null when not known (use the profile's). */
  decodes: readonly ModelImageFormat[] | null;
}

export const UNKNOWN_MODEL_SERVER: ModelServer = { kind: 'unknown', decodes: null };

/** The readable name of a server kind (logs, the banner). */
export const MODEL_SERVER_NAMES: Record<ModelServerKind, string> = {
  vllm: 'vLLM',
  sglang: 'SGLang',
  'llama.cpp': 'llama.cpp',
  unknown: 'an unidentified server',
};

const PILLOW_FORMATS: readonly ModelImageFormat[] = ['jpeg', 'png', 'webp'];
const STB_IMAGE_FORMATS: readonly ModelImageFormat[] = ['jpeg', 'png'];

const KNOWN: Record<string, ModelServer> = {
  vllm: { kind: 'vllm', decodes: PILLOW_FORMATS },
  sglang: { kind: 'sglang', decodes: PILLOW_FORMATS },
  llamacpp: { kind: 'llama.cpp', decodes: STB_IMAGE_FORMATS },
};

const modelListSchema = z.object({
  data: z.array(z.object({ id: z.unknown(), owned_by: z.unknown() }).loose()).min(1),
});

/** The list body read: the entry of the configured model if listed, else every entry must agree. */
export function modelServerOf(json: unknown, model: string): ModelServer {
  const list = modelListSchema.safeParse(json);
  if (!list.success) return UNKNOWN_MODEL_SERVER;
  const entries = list.data.data;
  const named = entries.filter((entry) => entry.id === model);
  const owners = new Set((named.length > 0 ? named : entries).map((entry) => entry.owned_by));
  if (owners.size !== 1) return UNKNOWN_MODEL_SERVER;
  const [owner] = owners;
  return (
    (typeof owner === 'string' && Object.hasOwn(KNOWN, owner) && KNOWN[owner]) ||
    UNKNOWN_MODEL_SERVER
  );
}

export interface ModelServerProbe {
  /** The configured base URL, up to and including `/v1`. */
  baseUrl: string;
  model: string;
  /** The wire's headers (the bearer key: vLLM and SGLang guard `/v1/models` with it). */
  headers: Record<string, string>;
  fetch: typeof fetch;
  /** Bound on the probe (default 5 s); a slow or silent server is `unknown`. */
  timeoutMs?: number;
}

const MAX_LIST_BYTES = 1 << 20;

/** Asks the server's `GET <baseUrl>/models`; never rejects except when `signal` aborts. */
export async function identifyModelServer(
  probe: ModelServerProbe,
  signal?: AbortSignal,
): Promise<ModelServer> {
  const bound = AbortSignal.timeout(probe.timeoutMs ?? 5000);
  const url = `${probe.baseUrl.replace(/\/+$/, '')}/models`;
  const { 'content-type': _json, ...headers } = probe.headers;
  try {
    const response = await probe.fetch(url, {
      headers: { ...headers, accept: 'application/json' },
      signal: signal ? AbortSignal.any([signal, bound]) : bound,
      redirect: 'error',
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return UNKNOWN_MODEL_SERVER;
    }
    const text = await readBoundedText(response, MAX_LIST_BYTES);
    return text === null ? UNKNOWN_MODEL_SERVER : modelServerOf(JSON.parse(text), probe.model);
  } catch (error) {
    signal?.throwIfAborted();
    void error; // unreachable, refused, not JSON, or over the bound: not known
    return UNKNOWN_MODEL_SERVER;
  }
}

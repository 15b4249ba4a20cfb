// What a model server was identified as (model-server.ts, ollama-version.ts): its kind and the
// image formats it is known to decode.
import type { ModelImageFormat } from '../profiles/profile-types.js';

export type ModelServerKind = 'vllm' | 'sglang' | 'llama.cpp' | 'ollama' | 'unknown';

export interface ModelServer {
  kind: ModelServerKind;
  /** The version the server reported, where it was asked (Ollama). */
  version?: string;
  /** The image formats the server is known to decode; null when not known (use the profile's). */
  decodes: readonly ModelImageFormat[] | null;
}

export const UNKNOWN_MODEL_SERVER: ModelServer = { kind: 'unknown', decodes: null };

/** The readable name of a server kind (logs, the banner). */
export const MODEL_SERVER_NAMES: Record<ModelServerKind, string> = {
  vllm: 'vLLM',
  sglang: 'SGLang',
  'llama.cpp': 'llama.cpp',
  ollama: 'Ollama',
  unknown: 'an unidentified server',
};

/** Pillow (vLLM, SGLang), Ollama's WebP transcode. */
export const WITH_WEBP: readonly ModelImageFormat[] = ['jpeg', 'png', 'webp'];
/** stb_image (llama.cpp), Ollama before 0.32.14. */
export const WITHOUT_WEBP: readonly ModelImageFormat[] = ['jpeg', 'png'];

/** The server's name for logs and the banner, with its version where it gave one. */
export function modelServerName(server: ModelServer): string {
  const name = MODEL_SERVER_NAMES[server.kind];
  return server.version ? `${name} ${server.version}` : name;
}

/** One bounded GET of the probe: the body's text, or null for anything but a 2xx within 1 MiB. */
export type ProbeGet = (url: string, withKey: boolean) => Promise<string | null>;

// Ollama, told apart from other servers with a bare model list by its own answers at the root of
// the base URL (`…/v1` → `…`): `GET /` says "Ollama is running" and `GET /api/version` its version
// (ollama `server/routes.go`; no key: Ollama has none). From 0.32.14 it transcodes a WebP to PNG
// before llama-server sees it (ollama#17755); 0.30.0–0.32.13 passed it on and llama-server
// refused it; older releases decoded it only for some models. So WebP from 0.32.14 on, JPEG before.
// docs/models.md, "Which server is it?".
import { z } from 'zod';
import {
  type ModelServer,
  type ProbeGet,
  UNKNOWN_MODEL_SERVER,
  WITH_WEBP,
  WITHOUT_WEBP,
} from './model-server-types.js';

/** The first release that transcodes WebP for llama-server. */
const WEBP_SINCE = [0, 32, 14] as const;

const versionSchema = z.object({ version: z.string().regex(/^\d+\.\d+\.\d+(?:[-+].*)?$/) });

/** True when `version` (x.y.z, a suffix ignored) is at or after `WEBP_SINCE`. */
export function ollamaDecodesWebp(version: string): boolean {
  const parts = version.split(/[-+]/, 1)[0]?.split('.').map(Number) ?? [];
  for (const [i, since] of WEBP_SINCE.entries()) {
    const part = parts[i] ?? 0;
    if (part !== since) return part > since;
  }
  return true;
}

/** Ollama with its version where the root of `baseUrl` (ending `/v1`) says so, else unknown. */
export async function ollamaServer(baseUrl: string, get: ProbeGet): Promise<ModelServer> {
  if (!baseUrl.endsWith('/v1')) return UNKNOWN_MODEL_SERVER;
  const root = baseUrl.slice(0, -'/v1'.length);
  const [banner, versionText] = await Promise.all([
    get(`${root}/`, false),
    get(`${root}/api/version`, false),
  ]);
  if (banner?.trim() !== 'Ollama is running' || versionText === null) return UNKNOWN_MODEL_SERVER;
  const parsed = versionSchema.safeParse(JSON.parse(versionText));
  if (!parsed.success) return UNKNOWN_MODEL_SERVER;
  const { version } = parsed.data;
  return {
    kind: 'ollama',
    version,
    decodes: ollamaDecodesWebp(version) ? WITH_WEBP : WITHOUT_WEBP,
  };
}

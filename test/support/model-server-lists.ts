// `GET /v1/models` as each self-hosted server writes it, for the fake model servers: the shapes and
// the key rule come from the servers' sources (vllm `entrypoints/openai/protocol.py` ModelCard and
// its `/v1` key middleware; sglang `entrypoints/openai/protocol.py` ModelCard and `utils/auth.py`;
// llama.cpp `tools/server/server-context.cpp` get_res_models, `server-http.cpp` public endpoints;
// ollama `openai/openai.go` ToListCompletion and its root answers; text-generation-inference `router/src/server.rs`),
// and which image bytes each one's decoder refuses (llama.cpp's stb_image: WebP).

/** The servers a fake can pose as (docs/models.md, "Image formats"). */
export type FakeServerKind = 'vllm' | 'sglang' | 'llama.cpp' | 'ollama' | 'tgi';

const created = 1_764_000_000;

/** `{"object": "list", "data": [entry]}`, the OpenAI list every server wraps its models in. */
const oneModel = (entry: Record<string, unknown>) => ({ object: 'list', data: [entry] });

/** The fields vLLM's and SGLang's `ModelCard` share. */
const modelCard = (model: string, owner: string, root: string) => ({
  id: model,
  object: 'model',
  created,
  owned_by: owner,
  root,
  parent: null,
  max_model_len: 32768,
});

/** The list body, and whether the server asks for the API key on this path. */
export function modelListOf(
  kind: FakeServerKind,
  model: string,
): { body: unknown; needsKey: boolean } {
  switch (kind) {
    case 'vllm':
      // ModelCard: id, object, created, owned_by, root, parent, max_model_len, permission.
      return {
        needsKey: true,
        body: oneModel({
          ...modelCard(model, 'vllm', `/models/${model}`),
          permission: [
            {
              id: 'modelperm-5c2f0a1e9b7d4c36',
              object: 'model_permission',
              created,
              allow_create_engine: false,
              allow_sampling: true,
              allow_logprobs: true,
              allow_search_indices: false,
              allow_view: true,
              allow_fine_tuning: false,
              organization: '*',
              group: null,
              is_blocking: false,
            },
          ],
        }),
      };
    case 'sglang':
      // ModelCard: the same fields as vLLM's but no permission list.
      return {
        needsKey: true,
        body: oneModel(modelCard(model, 'sglang', model)),
      };
    case 'llama.cpp':
      return {
        needsKey: false,
        body: {
          models: [
            {
              name: model,
              model,
              modified_at: '',
              size: '',
              digest: '',
              type: 'model',
              description: '',
              tags: [''],
              capabilities: ['completion', 'multimodal'],
              parameters: '',
              details: {
                parent_model: '',
                format: 'gguf',
                family: '',
                families: [''],
                parameter_size: '',
                quantization_level: '',
              },
            },
          ],
          object: 'list',
          data: [
            {
              id: model,
              aliases: [],
              tags: [],
              object: 'model',
              created,
              owned_by: 'llamacpp',
              meta: {
                vocab_type: 2,
                n_vocab: 151936,
                n_ctx: 32768,
                n_ctx_train: 128000,
                n_embd: 3584,
                n_params: 7615616512,
                size: 4683072512,
              },
            },
          ],
        },
      };
    case 'ollama':
      return {
        needsKey: false,
        body: oneModel({ id: model, object: 'model', created, owned_by: 'library' }),
      };
    case 'tgi':
      return {
        needsKey: false,
        body: oneModel({ id: model, object: 'model', created: 0, owned_by: model }),
      };
  }
}

/**
 * What the server answers at its root, beside the OpenAI API: Ollama's `GET /` ("Ollama is
 * running", text/plain) and `GET /api/version` (ollama `server/routes.go`); null elsewhere.
 */
export function rootAnswer(
  kind: FakeServerKind,
  path: string,
  version = '0.33.0',
): { contentType: string; body: string } | null {
  if (kind !== 'ollama') return null;
  if (path === '/') return { contentType: 'text/plain; charset=utf-8', body: 'Ollama is running' };
  if (path === '/api/version')
    return { contentType: 'application/json; charset=utf-8', body: JSON.stringify({ version }) };
  return null;
}

/** True for WebP bytes (RIFF….WEBP), whatever the data URL's media type says. */
function isWebp(bytes: Buffer): boolean {
  return (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  );
}

/**
 * The error the server answers when its image decoder cannot read one of `dataUrls`, else null:
 * llama-server's stb_image has no WebP decoder (HTTP 400, "Failed to load image or audio file").
 */
export function undecodableImage(
  kind: FakeServerKind | undefined,
  dataUrls: readonly string[],
): string | null {
  if (kind !== 'llama.cpp') return null;
  for (const url of dataUrls) {
    const comma = url.indexOf(',');
    if (comma >= 0 && isWebp(Buffer.from(url.slice(comma + 1, comma + 40), 'base64')))
      return 'Failed to load image or audio file';
  }
  return null;
}

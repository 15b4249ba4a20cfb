// The format of a task's screenshots follows its model server (docs/models.md, "Image formats"):
// a UI-TARS task through the real controlplane and model client, against fakes that pose as vLLM,
// llama.cpp, Ollama and an unidentified server — each with its own `GET /v1/models` body, key rule and
// image decoder (llama.cpp answers a WebP with HTTP 400). WebP only where the server says it
// reads it; the operator's CLAWDIE_MODEL_IMAGE_FORMAT wins over the server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createOpenAiCompatibleModel } from '../../../controlplane/src/agent/model/openai-compatible-model.js';
import { createTestControlplane } from '../../support/controlplane.js';
import type { FakeServerKind } from '../../support/model-server-lists.js';
import { startScriptedModel } from '../../support/uitars-test-model.js';
import { imageUrls } from '../../support/uitars-test-model-messages.js';

const KEY = 'model-key-0123456789';
const MODEL = 'ui-tars-1.5-7b';
const SCRIPT = [
  "Thought: go\nAction: click(start_box='<|box_start|>(644,406)<|box_end|>')",
  "Action: finished(content='42')",
];

interface Ran {
  status: string;
  error: string | null;
  message: string | null;
  /** The media type each image was sent as, and what its bytes are. */
  images: { declared: string; riff: boolean }[];
  modelsAsked: number;
}

async function runTask(
  poseAs: FakeServerKind | undefined,
  env: Record<string, string> = {},
  serverVersion?: string,
): Promise<Ran> {
  const server = await startScriptedModel(SCRIPT, {
    apiKey: KEY,
    modelName: MODEL,
    ...(poseAs ? { poseAs } : {}),
    ...(serverVersion ? { serverVersion } : {}),
  });
  const controlplane = await createTestControlplane({
    model: createOpenAiCompatibleModel({
      baseUrl: server.baseUrl,
      model: MODEL,
      apiKey: KEY,
      timeoutMs: 10_000,
      retries: 0,
      maxTokens: 256,
      temperature: 0,
    }),
    env: { CLAWDIE_MAX_STEPS: '4', CLAWDIE_MODEL_PROFILE: 'ui-tars-1.5', ...env },
  });
  try {
    const started = await controlplane.app.request('/v1/tasks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ instruction: 'read the answer' }),
    });
    assert.equal(started.status, 202, await started.clone().text());
    const { trace_id: id } = (await started.json()) as { trace_id: string };
    await (await controlplane.app.request(`/v1/tasks/${id}/events`)).text();
    const detail = (await (await controlplane.app.request(`/v1/tasks/${id}`)).json()) as {
      result: { status: string; error?: { code: string; message: string } };
    };
    const done = { status: detail.result.status, error: detail.result.error ?? null };
    const images = server.requests.flatMap((request) =>
      imageUrls(request.messages).map((url) => ({
        declared: url.slice(5, url.indexOf(';')),
        riff: Buffer.from(url.slice(url.indexOf(',') + 1, url.indexOf(',') + 17), 'base64')
          .subarray(0, 4)
          .equals(Buffer.from('RIFF')),
      })),
    );
    return {
      status: done.status,
      error: done.error?.code ?? null,
      message: done.error?.message ?? null,
      images,
      modelsAsked: server.modelsAsked,
    };
  } finally {
    await controlplane.close();
    await server.close();
  }
}

describe("a task's screenshots follow its model server", () => {
  it('vLLM (asked with the key it guards /v1/models with): every screenshot is WebP', async () => {
    const ran = await runTask('vllm');
    assert.equal(ran.status, 'finished', JSON.stringify(ran));
    assert.equal(ran.modelsAsked, 1, 'asked once per task');
    assert.ok(ran.images.length >= 2, JSON.stringify(ran.images));
    for (const image of ran.images) assert.deepEqual(image, { declared: 'image/webp', riff: true });
  });

  it('llama.cpp: JPEG, and the task finishes where WebP would be refused', async () => {
    const ran = await runTask('llama.cpp');
    assert.equal(ran.status, 'finished', JSON.stringify(ran));
    assert.ok(ran.images.length >= 2);
    for (const image of ran.images)
      assert.deepEqual(image, { declared: 'image/jpeg', riff: false });
    // The fake's decoder is real: forcing WebP at llama.cpp fails the task's first call.
    const forced = await runTask('llama.cpp', { CLAWDIE_MODEL_IMAGE_FORMAT: 'webp' });
    assert.notEqual(forced.status, 'finished', JSON.stringify(forced));
    assert.equal(forced.error, 'MODEL_REJECTED');
    // The ending names the server's refusal, the format sent and how to send JPEG.
    assert.match(forced.message ?? '', /HTTP 400: .*Failed to load image/);
    assert.match(
      forced.message ?? '',
      /the screenshots went as WEBP q40 \(CLAWDIE_MODEL_IMAGE_FORMAT\); a server that cannot decode WebP needs CLAWDIE_MODEL_IMAGE_FORMAT=jpeg/,
    );
    assert.equal(forced.modelsAsked, 0, "the operator's format needs no asking");
  });

  it('an unidentified server (a bare model list) and the operator over vLLM: JPEG', async () => {
    for (const ran of [
      await runTask(undefined),
      await runTask('vllm', { CLAWDIE_MODEL_IMAGE_FORMAT: 'jpeg' }),
    ]) {
      assert.equal(ran.status, 'finished', JSON.stringify(ran));
      assert.ok(ran.images.length >= 2);
      for (const image of ran.images) assert.equal(image.declared, 'image/jpeg');
    }
  });

  it('Ollama: WebP from 0.32.14 (it transcodes for llama-server), JPEG before', async () => {
    for (const [version, declared] of [
      ['0.32.14', 'image/webp'],
      ['0.32.13', 'image/jpeg'],
    ] as const) {
      const ran = await runTask('ollama', {}, version);
      assert.equal(ran.status, 'finished', JSON.stringify(ran));
      assert.ok(ran.images.length >= 2);
      for (const image of ran.images) assert.equal(image.declared, declared, version);
    }
  });
});

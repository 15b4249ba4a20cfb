// Which server answers, from its own `GET /v1/models` (model-server.ts), over real loopback HTTP:
// each fake poses as a real server with that server's list body and key rule
// (test/support/model-server-lists.ts). Anything not clearly vLLM, SGLang or llama.cpp — a proxy,
// another server, an error, garbage, a silent or huge answer — must be `unknown`, which keeps the
// profile's JPEG.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import {
  modelServerOf,
  UNKNOWN_MODEL_SERVER,
} from '../../../../controlplane/src/agent/model/model-server.js';
import { ollamaDecodesWebp } from '../../../../controlplane/src/agent/model/ollama-version.js';
import { createOpenAiCompatibleModel } from '../../../../controlplane/src/agent/model/openai-compatible-model.js';
import { anthropicMessagesWire } from '../../../../controlplane/src/agent/model/wires/anthropic-messages.js';
import { loopbackServerForSuite } from '../../../support/loopback-server.js';
import { type FakeServerKind, modelListOf } from '../../../support/model-server-lists.js';
import { startScriptedModel } from '../../../support/uitars-test-model.js';

const MODEL = 'ui-tars-1.5-7b';

function client(baseUrl: string, apiKey: string | null = null, timeoutMs = 60_000) {
  return createOpenAiCompatibleModel({
    baseUrl,
    model: MODEL,
    apiKey,
    timeoutMs,
    retries: 0,
    maxTokens: 64,
    temperature: 0,
  });
}

describe('model server identification (real HTTP, servers posed as)', () => {
  type Want = { kind: string; webp: boolean };
  const expected: Record<FakeServerKind, Want> = {
    vllm: { kind: 'vllm', webp: true },
    sglang: { kind: 'sglang', webp: true },
    'llama.cpp': { kind: 'llama.cpp', webp: false },
    ollama: { kind: 'ollama', webp: true },
    tgi: { kind: 'unknown', webp: false },
  };
  for (const [poseAs, want] of Object.entries(expected) as [FakeServerKind, Want][]) {
    it(`${poseAs} (with its API key) is ${want.kind}; WebP ${want.webp ? 'decoded' : 'not known'}`, async () => {
      const server = await startScriptedModel([], { apiKey: 'k-1', modelName: MODEL, poseAs });
      try {
        const found = await client(server.baseUrl, 'k-1').server?.();
        assert.equal(found?.kind, want.kind);
        assert.equal(found?.decodes?.includes('webp') ?? false, want.webp);
        assert.equal(server.modelsAsked, 1);
        const posts = server.requests.filter((request) => request.method !== 'GET');
        assert.equal(posts.length, 0, 'no chat request is sent to ask');
      } finally {
        await server.close();
      }
    });
  }

  it('sends the key: vLLM without it answers 401, which is unknown', async () => {
    const server = await startScriptedModel([], {
      apiKey: 'k-1',
      modelName: MODEL,
      poseAs: 'vllm',
    });
    try {
      assert.deepEqual(await client(server.baseUrl, 'wrong').server?.(), UNKNOWN_MODEL_SERVER);
      assert.equal((await client(server.baseUrl, 'k-1').server?.())?.kind, 'vllm');
    } finally {
      await server.close();
    }
  });

  it('is not asked over the hosted wires (their model lists say nothing of the server)', () => {
    const hosted = createOpenAiCompatibleModel({
      baseUrl: 'http://127.0.0.1:9/v1',
      wire: anthropicMessagesWire,
      model: MODEL,
      timeoutMs: 1000,
      retries: 0,
      maxTokens: 64,
      temperature: 0,
    });
    assert.equal(hosted.server, undefined);
    assert.equal(typeof client('http://127.0.0.1:9/v1').server, 'function');
  });
});

describe('model server identification: what is not clearly one server', () => {
  let handle: (request: IncomingMessage, response: ServerResponse) => void = () => undefined;
  const server = loopbackServerForSuite((request, response) => handle(request, response));
  const base = () => `${server.origin}/v1/`;
  const json = (status: number, body: string) => (_: IncomingMessage, response: ServerResponse) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(body);
  const vllm = JSON.stringify(modelListOf('vllm', MODEL).body);

  it('asks <baseUrl>/models once, the trailing slash of the base URL dropped', async () => {
    const paths: string[] = [];
    handle = (request, response) => {
      paths.push(`${request.method} ${request.url}`);
      json(200, vllm)(request, response);
    };
    assert.equal((await client(base()).server?.())?.kind, 'vllm');
    assert.deepEqual(paths, ['GET /v1/models']);
  });

  const cases: [string, typeof handle][] = [
    ['HTTP 404', json(404, '{"error":"not found"}')],
    ['HTTP 500 with a vLLM list', json(500, vllm)],
    ['a body that is not JSON', json(200, '<html>proxy login</html>')],
    ['an empty list', json(200, '{"object":"list","data":[]}')],
    [
      'a list without owned_by',
      json(200, `{"object":"list","data":[{"id":"${MODEL}","object":"model"}]}`),
    ],
    [
      'owned_by of another kind',
      json(200, `{"data":[{"id":"${MODEL}","owned_by":{"vllm":true}}]}`),
    ],
    [
      'an owner name on the prototype chain',
      json(200, `{"data":[{"id":"${MODEL}","owned_by":"constructor"}]}`),
    ],
    [
      'a proxy listing models of two servers, ours not among them',
      json(200, '{"data":[{"id":"a","owned_by":"vllm"},{"id":"b","owned_by":"llamacpp"}]}'),
    ],
    [
      'a redirect to a vLLM',
      (_, response) => response.writeHead(302, { location: '/v1/elsewhere' }).end(),
    ],
    [
      'a list larger than 1 MiB',
      json(
        200,
        JSON.stringify({ data: [{ id: MODEL, owned_by: 'vllm', pad: 'x'.repeat(1_100_000) }] }),
      ),
    ],
  ];
  for (const [what, handler] of cases) {
    it(`${what} is unknown`, async () => {
      handle = handler;
      assert.deepEqual(await client(base()).server?.(), UNKNOWN_MODEL_SERVER);
    });
  }

  it('a proxy listing several servers: the configured model entry decides', async () => {
    handle = json(
      200,
      JSON.stringify({
        data: [
          { id: 'other', owned_by: 'llamacpp' },
          { id: MODEL, owned_by: 'sglang' },
        ],
      }),
    );
    assert.equal((await client(base()).server?.())?.kind, 'sglang');
  });

  it('a server that never answers is unknown once the probe bound passes (the model timeout, at most 5 s)', {
    timeout: 20_000,
  }, async () => {
    handle = () => undefined; // never answers
    assert.deepEqual(await client(base(), null, 1000).server?.(), UNKNOWN_MODEL_SERVER);
  });

  it("rejects on the task's abort, so a cancelled task does not start with a guess", async () => {
    handle = () => undefined;
    const controller = new AbortController();
    const asked = client(base()).server?.(controller.signal);
    setTimeout(() => controller.abort(new Error('task cancelled')), 50);
    await assert.rejects(asked ?? Promise.resolve(), /task cancelled/);
  });

  it('reads only JSON lists: modelServerOf over bodies as servers write them', () => {
    assert.equal(modelServerOf(modelListOf('llama.cpp', MODEL).body, MODEL).kind, 'llama.cpp');
    assert.equal(modelServerOf(modelListOf('sglang', MODEL).body, 'another-name').kind, 'sglang');
    assert.equal(modelServerOf(null, MODEL).kind, 'unknown');
    assert.equal(modelServerOf({ data: 'vllm' }, MODEL).kind, 'unknown');
  });

  it('Ollama: its version decides (WebP transcoded from 0.32.14; ollama#17755)', async () => {
    const cases: [string, boolean][] = [
      ['0.32.14', true],
      ['0.32.14-rc0', true],
      ['0.33.0', true],
      ['1.0.0', true],
      ['0.32.13', false],
      ['0.24.0', false],
      ['0.0.0', false],
    ];
    for (const [serverVersion, webp] of cases) {
      const server = await startScriptedModel([], {
        modelName: MODEL,
        poseAs: 'ollama',
        serverVersion,
      });
      try {
        const found = await client(server.baseUrl).server?.();
        assert.equal(found?.kind, 'ollama', serverVersion);
        assert.equal(found?.version, serverVersion);
        assert.equal(found?.decodes?.includes('webp'), webp, serverVersion);
        assert.equal(ollamaDecodesWebp(serverVersion), webp);
      } finally {
        await server.close();
      }
    }
  });

  it('a bare list is Ollama only where its root says so, at a base URL ending /v1', async () => {
    const bare = JSON.stringify(modelListOf('ollama', MODEL).body);
    const answers =
      (root: string | null, version: string | null) =>
      (request: IncomingMessage, response: ServerResponse) => {
        const path = request.url ?? '';
        const body = path.endsWith('/models')
          ? bare
          : path === '/'
            ? root
            : path === '/api/version'
              ? version
              : null;
        if (body === null) return void response.writeHead(404).end();
        response.writeHead(200).end(body);
      };
    handle = answers('Ollama is running', '{"version":"0.33.0"}');
    assert.equal((await client(base()).server?.())?.kind, 'ollama');
    // The same server behind a base URL without /v1: its root is not known.
    assert.deepEqual(await client(`${server.origin}/ollama`).server?.(), UNKNOWN_MODEL_SERVER);
    for (const [root, version] of [
      ['another server', '{"version":"0.33.0"}'],
      ['Ollama is running', null],
      ['Ollama is running', '{"version":"latest"}'],
      ['Ollama is running', 'not json'],
      [null, '{"version":"0.33.0"}'],
    ] as const) {
      handle = answers(root, version);
      assert.deepEqual(
        await client(base()).server?.(),
        UNKNOWN_MODEL_SERVER,
        `${root} / ${version}`,
      );
    }
  });
});

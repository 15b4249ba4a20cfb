// CLAWDIE_MODEL_* client settings: parsed once in config.ts, and what the configured model does
// with them against a real fake server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createConfiguredModel } from '../../../../controlplane/src/agent/model/configured-model.js';
import { loadConfig } from '../../../../controlplane/src/config.js';
import { ConfigError } from '../../../../controlplane/src/errors.js';
import {
  type FaultyChatServer,
  startFaultyChatServer,
} from '../../../support/faulty-chat-server.js';
import { createManualClock } from '../../../support/manual-clock.js';

const request = { messages: [{ role: 'user' as const, content: 'Find the lamp' }] };

describe('model client configuration', () => {
  let server: FaultyChatServer;
  before(async () => {
    server = await startFaultyChatServer({ delayMs: 20 });
  });
  after(() => server.close());

  it('defaults to streaming, a limit of 4, a 30 s first token, 5 retries a call and 30 a task', () => {
    const { model } = loadConfig({});
    assert.deepEqual(
      [
        model.stream,
        model.concurrency,
        model.firstTokenTimeoutMs,
        model.retries,
        model.taskRetries,
      ],
      [true, 4, 30_000, 5, 30],
    );
    const set = loadConfig({
      CLAWDIE_MODEL_STREAM: '0',
      CLAWDIE_MODEL_CONCURRENCY: '16',
      CLAWDIE_MODEL_FIRST_TOKEN_TIMEOUT_MS: '0',
      CLAWDIE_MODEL_TASK_RETRIES: '0',
    }).model;
    assert.deepEqual(
      [set.stream, set.concurrency, set.firstTokenTimeoutMs, set.taskRetries],
      [false, 16, 0, 0],
    );
    for (const bad of ['0', '-1', '2.5', 'many']) {
      assert.throws(() => loadConfig({ CLAWDIE_MODEL_CONCURRENCY: bad }), ConfigError);
    }
    assert.throws(() => loadConfig({ CLAWDIE_MODEL_STREAM: 'maybe' }), ConfigError);
  });

  it("sends the profile's image format unless CLAWDIE_MODEL_IMAGE_FORMAT names one", () => {
    assert.deepEqual(loadConfig({}).model.imageEncoding, {
      format: null,
      jpegQuality: 80,
      webpQuality: 40,
      olderWebpQuality: 10,
    });
    assert.deepEqual(
      loadConfig({
        CLAWDIE_MODEL_IMAGE_FORMAT: 'jpeg',
        CLAWDIE_MODEL_JPEG_QUALITY: '70',
        CLAWDIE_MODEL_WEBP_QUALITY: '60',
        CLAWDIE_MODEL_OLDER_WEBP_QUALITY: '30',
      }).model.imageEncoding,
      { format: 'jpeg', jpegQuality: 70, webpQuality: 60, olderWebpQuality: 30 },
    );
    for (const [name, bad] of [
      ['CLAWDIE_MODEL_IMAGE_FORMAT', 'gif'],
      ['CLAWDIE_MODEL_WEBP_QUALITY', '101'],
    ] as const)
      assert.throws(() => loadConfig({ [name]: bad }), ConfigError);
  });

  it('builds one client whose limit every caller shares, streaming as configured', async () => {
    const config = (stream: string) =>
      loadConfig({
        CLAWDIE_MODEL_URL: server.baseUrl,
        CLAWDIE_MODEL_CONCURRENCY: '2',
        CLAWDIE_MODEL_STREAM: stream,
      });
    const model = await createConfiguredModel(config('true'), { clock: createManualClock() });
    assert.ok(model);
    const first = server.requests.length;
    const replies = await Promise.all(Array.from({ length: 6 }, () => model.complete(request)));
    assert.ok(replies.every((reply) => reply.text === server.scriptReply(0)));
    assert.equal(server.inFlight.peak, 2);
    assert.ok(server.requests.slice(first).every((record) => record.body?.stream === true));

    const plain = await createConfiguredModel(config('false'));
    await plain?.complete(request);
    assert.equal(server.requests.at(-1)?.body?.stream, false);
  });
});

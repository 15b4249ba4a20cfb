import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { geminiGenerateContentWire as wire } from '../../../../controlplane/src/agent/model/wires/gemini-generate-content.js';

const fields = {
  model: 'gemini-2.5-computer-use-preview-10-2025',
  maxTokens: 2048,
  temperature: 0.2,
  stream: false,
};

function reply(parts: unknown[], extra: Record<string, unknown> = {}) {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    ...extra,
  };
}

describe('gemini-generate-content wire', () => {
  it('posts to {base}/models/{model}:generateContent with x-goog-api-key', () => {
    const base = 'https://generativelanguage.googleapis.com/v1beta';
    assert.equal(
      wire.endpoint(`${base}/`, fields.model),
      `${base}/models/${fields.model}:generateContent`,
    );
    assert.equal(
      wire.endpoint(base, `models/${fields.model}`),
      `${base}/models/${fields.model}:generateContent`,
    );
    assert.deepEqual(wire.headers('k'), {
      'content-type': 'application/json',
      'x-goog-api-key': 'k',
    });
    assert.deepEqual(wire.headers(null), { 'content-type': 'application/json' });
    assert.equal(wire.streams, false);
  });

  it('carries the transport fields in generationConfig, the model in the URL only', () => {
    const body = wire.body({ contents: [], generationConfig: { topK: 40 } }, fields);
    assert.deepEqual(body, {
      contents: [],
      generationConfig: { topK: 40, maxOutputTokens: 2048, temperature: 0.2 },
    });
  });

  it('reads text, usage (thinking counted as completion) and the stop reason', () => {
    const read = wire.read(
      reply(
        [
          { text: 'Looking. ' },
          { text: 'thinking…', thought: true },
          { functionCall: { name: 'go_back', args: {} } },
        ],
        {
          usageMetadata: {
            promptTokenCount: 1290,
            candidatesTokenCount: 31,
            thoughtsTokenCount: 9,
            totalTokenCount: 1330,
          },
        },
      ),
    );
    assert.ok(read.ok);
    assert.equal(read.reply.text, 'Looking. ');
    assert.equal(read.finishReason, 'stop');
    assert.equal(read.empty, false);
    assert.deepEqual(read.usage, { promptTokens: 1290, completionTokens: 40 });
  });

  it('MAX_TOKENS is `length`; a reply with neither text nor call is empty', () => {
    const cut = wire.read({
      candidates: [
        { content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'MAX_TOKENS' },
      ],
    });
    assert.ok(cut.ok);
    assert.equal(cut.finishReason, 'length');
    assert.equal(cut.empty, true);
    assert.equal(cut.usage, null);
    const noContent = wire.read({ candidates: [{ finishReason: 'SAFETY' }] });
    assert.ok(noContent.ok);
    assert.equal(noContent.empty, true);
    assert.equal(noContent.finishReason, 'safety');
  });

  it('a body without candidates is not a reply', () => {
    assert.deepEqual(wire.read({ promptFeedback: { blockReason: 'SAFETY' } }), {
      ok: false,
      message: 'the prompt was blocked (SAFETY)',
    });
    assert.equal(wire.read([]).ok, false);
    assert.equal(wire.read({ candidates: [] }).ok, false);
  });
});

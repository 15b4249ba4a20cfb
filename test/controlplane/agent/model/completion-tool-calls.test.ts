// A reply whose message carries `tool_calls` (vLLM with `--enable-auto-tool-choice
// --tool-call-parser hermes`) reads into `Completion.toolCalls`, from a JSON body and from an event
// stream whose tool-call deltas arrive split across events and network chunks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AttemptResult } from '../../../../controlplane/src/agent/model/attempt-result.js';
import { readChatStream } from '../../../../controlplane/src/agent/model/chat-stream.js';
import { readCompletion } from '../../../../controlplane/src/agent/model/completion-reader.js';
import { chatCompletionsWire } from '../../../../controlplane/src/agent/model/wires/chat-completions.js';

const hooks = { onStream: () => undefined, onFirstToken: () => undefined };
const args = '{"action": "left_click", "coordinate": [640, 410]}';

function completionOf(result: AttemptResult) {
  assert.equal(result.ok, true, result.ok ? '' : result.error.message);
  if (!result.ok) throw new Error('unreachable');
  return result.completion;
}

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

describe('tool calls in a JSON completion', () => {
  it('reads message.tool_calls beside null content', async () => {
    const body = {
      choices: [
        {
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'computer_use', arguments: args },
              },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
    };
    const completion = completionOf(await readCompletion(json(body), hooks, chatCompletionsWire));
    assert.equal(completion.text, '');
    assert.deepEqual(completion.toolCalls, [
      { id: 'call_1', name: 'computer_use', arguments: args },
    ]);
    assert.equal(completion.finishReason, 'tool_calls');
  });

  it('keeps the text beside the calls, re-serialises object arguments, and is [] without calls', async () => {
    const withObject = {
      choices: [
        {
          message: {
            content: 'The button is at the top.',
            tool_calls: [{ function: { name: 'computer_use', arguments: { action: 'wait' } } }],
          },
        },
      ],
    };
    const completion = completionOf(
      await readCompletion(json(withObject), hooks, chatCompletionsWire),
    );
    assert.equal(completion.text, 'The button is at the top.');
    assert.deepEqual(completion.toolCalls, [
      { id: '', name: 'computer_use', arguments: '{"action":"wait"}' },
    ]);
    const plain = { choices: [{ message: { content: 'Thought: x' } }] };
    assert.deepEqual(
      completionOf(await readCompletion(json(plain), hooks, chatCompletionsWire)).toolCalls,
      [],
    );
  });
});

describe('tool calls in an event stream', () => {
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

  /** vLLM's hermes streaming: id and name first, then the arguments in pieces; two calls. */
  const events = [
    chunk({ role: 'assistant', content: '' }),
    chunk({ content: 'I click the ' }),
    chunk({ content: 'button.' }),
    chunk({
      tool_calls: [
        {
          index: 0,
          id: 'chatcmpl-tool-a',
          type: 'function',
          function: { name: 'computer_use', arguments: '' },
        },
      ],
    }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, 20) } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(20) } }] }),
    chunk({
      tool_calls: [{ index: 1, id: 'chatcmpl-tool-b', function: { name: 'computer_use' } }],
    }),
    chunk({ tool_calls: [{ index: 1, function: { arguments: '{"action": "wait"}' } }] }),
    chunk({}, 'tool_calls'),
    'data: [DONE]\n\n',
  ].join('');

  /** The stream in network chunks of 7 bytes, cutting events and UTF-8 anywhere. */
  function body(text: string): ReadableStream<Uint8Array> {
    const bytes = new TextEncoder().encode(text);
    let at = 0;
    return new ReadableStream({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(at, at + 7));
        at += 7;
      },
    });
  }

  it('joins the deltas of each call by index, beside the joined text', async () => {
    let firstTokens = 0;
    const result = await readChatStream(body(events), 1 << 20, () => {
      firstTokens += 1;
    });
    const completion = completionOf(result);
    assert.equal(completion.text, 'I click the button.');
    assert.deepEqual(completion.toolCalls, [
      { id: 'chatcmpl-tool-a', name: 'computer_use', arguments: args },
      { id: 'chatcmpl-tool-b', name: 'computer_use', arguments: '{"action": "wait"}' },
    ]);
    assert.equal(completion.finishReason, 'tool_calls');
    assert.equal(firstTokens, 1);
  });

  it('counts a tool-call delta as the first token of a reply without text', async () => {
    let firstTokens = 0;
    const onlyCall = [
      chunk({ role: 'assistant', content: '' }),
      chunk({
        tool_calls: [{ index: 0, id: 'c', function: { name: 'computer_use', arguments: args } }],
      }),
      chunk({}, 'tool_calls'),
      'data: [DONE]\n\n',
    ].join('');
    const completion = completionOf(
      await readChatStream(body(onlyCall), 1 << 20, () => {
        firstTokens += 1;
      }),
    );
    assert.equal(completion.text, '');
    assert.deepEqual(completion.toolCalls, [{ id: 'c', name: 'computer_use', arguments: args }]);
    assert.equal(firstTokens, 1);
  });

  it('reads a stream served as application/json the same way', async () => {
    const response = new Response(events, { headers: { 'content-type': 'application/json' } });
    const completion = completionOf(await readCompletion(response, hooks, chatCompletionsWire));
    assert.equal(completion.toolCalls.length, 2);
    assert.equal(completion.toolCalls[0]?.arguments, args);
  });
});

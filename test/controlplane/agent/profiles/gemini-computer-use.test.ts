import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { geminiComputerUseProfile as profile } from '../../../../controlplane/src/agent/profiles/gemini-computer-use.js';
import type {
  HistoryTurn,
  ProfileImage,
  SafetySignal,
} from '../../../../controlplane/src/agent/profiles/profile-types.js';

function image(base64: string): ProfileImage {
  return {
    dataUrl: `data:image/jpeg;base64,${base64}`,
    base64,
    mediaType: 'image/jpeg',
    width: 1280,
    height: 800,
    bytes: 3,
  };
}

function observation(
  base64: string,
  notes: string[] = [],
  acknowledged: SafetySignal[] = [],
): HistoryTurn {
  return { kind: 'observation', image: image(base64), notes, acknowledged };
}

/** A generateContent reply body with these parts. */
function body(parts: unknown[], finishReason = 'STOP'): unknown {
  return { candidates: [{ content: { role: 'model', parts }, finishReason, index: 0 }] };
}

function read(parts: unknown[], finishReason = 'STOP') {
  return profile.readReply({ text: '', body: body(parts, finishReason) });
}

function call(name: string, args: Record<string, unknown> = {}) {
  return { functionCall: { name, args } };
}

function replyTurn(parts: unknown[]): HistoryTurn {
  return { kind: 'reply', turn: read(parts).turn };
}

const request = (history: HistoryTurn[], imageWindow = 3) =>
  profile.buildRequest({
    instruction: 'Click the marker',
    history,
    actionSpace: 'browser',
    imageWindow,
  });

const CLICK = [{ text: 'I will click it.' }, call('click_at', { x: 500, y: 250 })];
const TOOLS = [
  {
    computerUse: {
      environment: 'ENVIRONMENT_BROWSER',
      excludedPredefinedFunctions: ['go_forward'],
    },
  },
];

describe('gemini-computer-use requests', () => {
  it('renders the first and the second request of a two-step task', () => {
    const first = request([observation('AAAA')]);
    assert.deepEqual(first, {
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Click the marker' },
            { inlineData: { mimeType: 'image/jpeg', data: 'AAAA' } },
          ],
        },
      ],
      tools: TOOLS,
    });
    const second = request([
      observation('AAAA'),
      replyTurn(CLICK),
      observation('BBBB', ['clicked']),
    ]);
    assert.deepEqual(second.contents, [
      (first.contents as unknown[])[0],
      { role: 'model', parts: CLICK },
      {
        role: 'user',
        parts: [
          {
            functionResponse: {
              name: 'click_at',
              response: { notes: ['clicked'] },
              parts: [{ inlineData: { mimeType: 'image/jpeg', data: 'BBBB' } }],
            },
          },
        ],
      },
    ]);
    assert.deepEqual(second.tools, TOOLS);
    const firstText = JSON.stringify(first);
    const prefix = firstText.slice(0, firstText.indexOf('],"tools"'));
    assert.ok(JSON.stringify(second).startsWith(prefix), 'the second request repeats the first');
  });

  it('answers every parallel call, the screenshot in the last response, ids echoed', () => {
    const parts = [
      { functionCall: { id: 'c1', name: 'click_at', args: { x: 1, y: 2 } } },
      { functionCall: { id: 'c2', name: 'go_forward', args: {} } },
    ];
    const refused = read([parts[1]]).parsed;
    assert.ok(refused.ok);
    const built = request([observation('AAAA'), replyTurn(parts), observation('BBBB')]);
    const answers = ((built.contents as { parts: unknown[] }[])[2] as { parts: unknown[] }).parts;
    assert.deepEqual(answers, [
      { functionResponse: { name: 'click_at', response: {}, id: 'c1' } },
      {
        functionResponse: {
          name: 'go_forward',
          response: { error: refused.reply.refused[0]?.note },
          id: 'c2',
          parts: [{ inlineData: { mimeType: 'image/jpeg', data: 'BBBB' } }],
        },
      },
    ]);
  });

  it('echoes an approved safety decision as safety_acknowledgement "true"', () => {
    const parts = [
      call('click_at', {
        x: 10,
        y: 20,
        safety_decision: { decision: 'require_confirmation', explanation: 'Buys a thing.' },
      }),
    ];
    const parsed = read(parts).parsed;
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.reply.safety, [
      {
        code: 'require_confirmation',
        message: 'Buys a thing.',
        ack: { call: 0, name: 'click_at' },
      },
    ]);
    const built = request([
      observation('AAAA'),
      replyTurn(parts),
      observation('BBBB', [], parsed.reply.safety),
    ]);
    const answer = JSON.stringify((built.contents as unknown[])[2]);
    assert.match(answer, /"response":\{"safety_acknowledgement":"true"\}/);
    const unapproved = JSON.stringify(
      (
        request([observation('AAAA'), replyTurn(parts), observation('BBBB')]).contents as unknown[]
      )[2],
    );
    assert.doesNotMatch(unapproved, /safety_acknowledgement/);
  });

  it('keeps the newest screenshots only (older ones leave two at a time), the rest unchanged', () => {
    const history = [observation('AAAA')];
    for (const data of ['BBBB', 'CCCC', 'DDDD']) history.push(replyTurn(CLICK), observation(data));
    const text = JSON.stringify(request(history, 3));
    for (const data of ['AAAA', 'BBBB']) assert.doesNotMatch(text, new RegExp(data));
    for (const data of ['CCCC', 'DDDD']) assert.match(text, new RegExp(data));
    assert.match(
      text,
      /^\{"contents":\[\{"role":"user","parts":\[\{"text":"Click the marker"\}\]\}/,
    );
  });

  it('a desktop surface leaves the navigation functions out', () => {
    const built = profile.buildRequest({
      instruction: 'x',
      history: [observation('AAAA')],
      actionSpace: 'computer',
      imageWindow: 1,
    });
    assert.deepEqual((built.tools as { computerUse: unknown }[])[0]?.computerUse, {
      environment: 'ENVIRONMENT_BROWSER',
      excludedPredefinedFunctions: [
        'open_web_browser',
        'go_back',
        'go_forward',
        'search',
        'navigate',
      ],
    });
  });
});

describe('gemini-computer-use image policy', () => {
  const cases: [number, number, number, number][] = [
    [1280, 800, 1280, 800],
    [1366, 768, 1366, 768],
    [1920, 1080, 1440, 810],
    [2560, 1600, 1440, 900],
    [2732, 1536, 1440, 810],
    [3840, 2160, 1440, 810],
  ];
  for (const [width, height, w, h] of cases) {
    it(`${width}×${height} → ${w}×${h} (inside 1440×900, aspect kept)`, () => {
      assert.deepEqual(profile.image.size(width, height), { width: w, height: h });
    });
  }
  it('keeps three screenshots, like the reference', () => {
    assert.equal(profile.image.maxImages, 3);
    assert.deepEqual(profile.coordinates, { kind: 'relative', divisor: 1000 });
  });
});

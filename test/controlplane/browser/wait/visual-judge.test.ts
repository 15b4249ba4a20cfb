import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { urlMatches } from '../../../../controlplane/src/browser/wait/conditions.js';
import {
  createModelVisualJudge,
  parseVisualVerdict,
} from '../../../../controlplane/src/browser/wait/visual-judge.js';

describe('visual verdict parsing', () => {
  const cases: [string, string, string][] = [
    [
      'The dialog is open.\nFINAL_JSON: {"decision":"resolved","reason":"dialog open"}',
      'resolved',
      'dialog open',
    ],
    [
      'Loading...\nFINAL_JSON: {"decision": "partial", "reason": "spinner"}\n',
      'partial',
      'spinner',
    ],
    ["FINAL_JSON: {'decision': 'watching', 'reason': 'nothing yet',}", 'watching', 'nothing yet'],
    [
      '```json\nFINAL_JSON: {"decision":"RESOLVED","reason":"a {brace} in text"}\n```',
      'resolved',
      'a {brace} in text',
    ],
    ['final_json: {"decision":"in progress"}', 'partial', ''],
    ['FINAL_JSON: {"decision":"done", "reason": "ok"', 'resolved', 'ok'],
    [
      'first FINAL_JSON: {"decision":"watching"} then FINAL_JSON: {"decision":"resolved"}',
      'resolved',
      '',
    ],
    ['YES: the tick is green', 'resolved', 'the tick is green'],
    ['Thinking...\nNO: still spinning', 'watching', 'still spinning'],
    ['**YES** - done', 'resolved', 'done'],
    ['no', 'watching', 'no'],
  ];
  for (const [text, decision, reason] of cases) {
    it(`reads ${JSON.stringify(text.slice(0, 40))} as ${decision}`, () => {
      const verdict = parseVisualVerdict(text);
      assert.equal(verdict.decision, decision);
      assert.equal(verdict.reason, reason);
    });
  }

  it('never resolves on an unusable reply', () => {
    for (const text of [
      '',
      'I think so',
      'FINAL_JSON: {"decision":"maybe"}',
      'FINAL_JSON: nothing',
    ]) {
      assert.equal(parseVisualVerdict(text).decision, 'watching', text);
    }
  });
});

describe('url patterns', () => {
  it('matches globs over the whole URL and regex literals', () => {
    assert.ok(urlMatches('https://shop.test/orders/42', 'https://shop.test/orders/*'));
    assert.ok(!urlMatches('https://shop.test/orders/42?x', 'https://shop.test/cart*'));
    assert.ok(!urlMatches('https://evil.test/?https://shop.test/orders/1', 'https://shop.test/*'));
    assert.ok(urlMatches('https://shop.test/orders/42', '/orders\\/\\d+$/'));
    assert.ok(urlMatches('HTTPS://X.TEST/', '/x\\.test/i'));
  });
});

describe('the model judge', () => {
  it('asks no model once its wait is aborted, even a model that never checks its signal', async () => {
    let calls = 0;
    const judge = createModelVisualJudge({
      name: 'deaf',
      isReplay: true,
      complete: () => {
        calls += 1;
        return new Promise(() => undefined);
      },
    });
    const aborted = AbortSignal.abort(new Error('the wait ended'));
    await assert.rejects(
      judge.judge({ condition: 'a dialog is open', frames: [], history: [], now: 0 }, aborted),
      /the wait ended/,
    );
    assert.equal(calls, 0);
  });
});

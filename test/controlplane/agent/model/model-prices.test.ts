// CLAWDIE_MODEL_PRICES: the price table per model name, inline JSON or a file, refused at start
// when it does not parse; and what a call costs by it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { CallUsage } from '../../../../controlplane/src/agent/model/call-usage.js';
import { loadConfig } from '../../../../controlplane/src/config.js';
import { ConfigError } from '../../../../controlplane/src/errors.js';
import { createUsageMeter } from '../../../../controlplane/src/tasks/task-usage.js';

const call = (model: string, promptTokens: number, completionTokens: number): CallUsage => ({
  model,
  promptTokens,
  completionTokens,
  estimated: false,
  images: 1,
  imageBytes: 1000,
  queueMs: 0,
  firstTokenMs: null,
  totalMs: 10,
});

describe('the model price table', () => {
  it('is empty by default: no task has a cost', () => {
    assert.deepEqual(loadConfig({}).model.prices, {});
  });

  it('reads inline JSON, the currency defaulting to USD', () => {
    const { prices } = loadConfig({
      CLAWDIE_MODEL_PRICES:
        '{"ui-tars-1.5-7b":{"input_per_million":0.2,"output_per_million":0.6},"judge":{"input_per_million":1,"output_per_million":2,"currency":"EUR"}}',
    }).model;
    assert.deepEqual(prices, {
      'ui-tars-1.5-7b': { input_per_million: 0.2, output_per_million: 0.6, currency: 'USD' },
      judge: { input_per_million: 1, output_per_million: 2, currency: 'EUR' },
    });
  });

  it('reads a JSON file, relative to the working directory', () => {
    const directory = mkdtempSync(join(tmpdir(), 'clawdie-prices-'));
    try {
      writeFileSync(
        join(directory, 'prices.json'),
        '{"m":{"input_per_million":3,"output_per_million":15}}',
      );
      const { prices } = loadConfig({ CLAWDIE_MODEL_PRICES: 'prices.json' }, directory).model;
      assert.deepEqual(prices, {
        m: { input_per_million: 3, output_per_million: 15, currency: 'USD' },
      });
    } finally {
      rmSync(directory, { recursive: true });
    }
  });

  it('refuses a table that does not parse, naming the variable and the problem', () => {
    const refused = (value: string, message: RegExp) =>
      assert.throws(
        () => loadConfig({ CLAWDIE_MODEL_PRICES: value }),
        (error: unknown) => error instanceof ConfigError && message.test(error.message),
      );
    refused('{"m":', /^CLAWDIE_MODEL_PRICES: .*JSON/);
    refused(
      '{"m":{"input_per_million":-1,"output_per_million":1}}',
      /^CLAWDIE_MODEL_PRICES: m\.input_per_million/,
    );
    refused('{"m":{"input":1,"output":1}}', /^CLAWDIE_MODEL_PRICES: m/);
    refused(
      '{"m":{"input_per_million":1,"output_per_million":1,"currency":"dollars"}}',
      /currency/,
    );
    refused('/nonexistent/prices.json', /^CLAWDIE_MODEL_PRICES file \/nonexistent\/prices\.json: /);
  });

  it('prices each call by its model; no cost when a call is unpriced or the currencies differ', () => {
    const prices = {
      task: { input_per_million: 2, output_per_million: 8, currency: 'USD' },
      judge: { input_per_million: 1, output_per_million: 1, currency: 'USD' },
      euro: { input_per_million: 1, output_per_million: 1, currency: 'EUR' },
    };
    const meter = createUsageMeter(prices);
    meter.add(call('task', 1_000, 100), 'model');
    const totals = meter.add(call('judge', 500, 10), 'judge');
    // 1000 × 2 + 100 × 8 + 500 × 1 + 10 × 1 = 3310 per million tokens.
    assert.deepEqual(totals.cost, { amount: 0.00331, currency: 'USD' });
    assert.deepEqual(
      [totals.model_calls, totals.judge_calls, totals.prompt_tokens, totals.completion_tokens],
      [1, 1, 1_500, 110],
    );
    assert.equal(meter.add(call('euro', 1, 1), 'judge').cost, null);
    const unpriced = createUsageMeter(prices);
    unpriced.add(call('task', 1, 1), 'model');
    assert.equal(unpriced.add(call('unknown', 1, 1), 'model').cost, null);
  });
});

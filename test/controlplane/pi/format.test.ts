import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  formatProgress,
  formatResultText,
  isFailedTaskResult,
} from '../../../controlplane/pi-extension/format.js';
import type { CompactResult } from '../../../controlplane/src/tasks/task-input.js';

const result = (overrides: Partial<CompactResult> = {}): CompactResult => ({
  status: 'finished',
  summary: 'done',
  result_data: null,
  trace_id: 't1',
  step_count: 3,
  final_screenshot_path: '/data/traces/t1/final.jpg',
  ...overrides,
});

const step = {
  trace_id: 't1',
  step: 3,
  max_steps: 30,
  outcome: 'acted',
  actions: ['click (640, 400)'],
  thought: null,
  message: null,
  timings_ms: { capture: 1, model: 2, execute: 3 },
};

describe('formatProgress', () => {
  it('shows the step and its actions, or the outcome when there were none', () => {
    assert.equal(
      formatProgress({ trace_id: 't1', status: 'running', step }),
      'step 3/30: click (640, 400)',
    );
    assert.equal(
      formatProgress({
        trace_id: 't1',
        status: 'running',
        step: { ...step, actions: ['click (1, 2)', 'type "x"'] },
      }),
      'step 3/30: click (1, 2), type "x"',
    );
    assert.equal(
      formatProgress({
        trace_id: 't1',
        status: 'running',
        step: { ...step, actions: [], outcome: 'parse_error' },
      }),
      'step 3/30: parse_error',
    );
    assert.equal(
      formatProgress({ trace_id: 't1', status: 'queued', step: null }),
      'browser task t1 queued',
    );
    assert.equal(
      formatProgress({
        trace_id: 't1',
        status: 'awaiting_approval',
        step: null,
        approval: { id: 'a1', kind: 'navigation', reason: 'outside the domains', action: null },
      }),
      'browser task t1 awaiting approval a1 (navigation): outside the domains',
    );
  });
});

describe('formatResultText', () => {
  it('is the compact result as JSON when it fits', () => {
    const compact = result({ result_data: { price: 42 }, summary: '{"price": 42}' });
    assert.deepEqual(JSON.parse(formatResultText(compact)), compact);
  });

  it('cuts a huge result_data and its duplicate summary, saying where the full result is', () => {
    const items = Array.from({ length: 5000 }, (_, index) => ({ index, name: `item ${index}` }));
    const json = JSON.stringify({ items });
    const text = formatResultText(result({ result_data: { items }, summary: json }));
    assert.ok(text.length < 22_000, `${text.length} characters`);
    const view = JSON.parse(text);
    assert.equal(typeof view.result_data, 'string');
    assert.ok(view.result_data.startsWith('{"items":[{"index":0'));
    assert.ok(view.result_data.endsWith('…'));
    assert.ok(JSON.stringify(view.summary).length <= 1000);
    assert.ok(view.summary.endsWith('…'));
    assert.match(view.truncated, /result_data \(\d+ characters of JSON\) and summary/);
    assert.match(view.truncated, /GET \/v1\/tasks\/t1/);
    assert.equal(view.status, 'finished');
  });

  it('keeps a long plain-text summary up to its own limit', () => {
    const view = JSON.parse(formatResultText(result({ summary: 'x'.repeat(5000) })));
    assert.equal(view.summary.length, 5000);
    assert.equal(view.truncated, undefined);
  });
});

describe('isFailedTaskResult', () => {
  it('flags error, aborted and max_steps results only', () => {
    for (const status of ['error', 'aborted', 'max_steps'] as const) {
      assert.equal(isFailedTaskResult(result({ status })), true, status);
    }
    for (const status of ['finished', 'call_user'] as const) {
      assert.equal(isFailedTaskResult(result({ status })), false, status);
    }
    assert.equal(isFailedTaskResult({}), false);
    assert.equal(isFailedTaskResult(undefined), false);
    assert.equal(isFailedTaskResult({ trace_id: 't1', status: 'running', step: null }), false);
  });
});

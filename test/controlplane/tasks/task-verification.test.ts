// The verdict table of tasks/task-verification.ts, row by row, and the ledger reading it from the
// run's events: the last state-changing request decides, criteria that could not be checked are
// not a pass, a claimed change with nothing sent is not one either.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NetworkEntry } from '@clawdie/kit/jail-api';
import { createProgressPrinter } from '../../../controlplane/src/ingress/cli/cli-output.js';
import { renderResultText } from '../../../controlplane/src/ingress/mcp/browser-run-task-tool.js';
import {
  createEvidenceLedger,
  verdictOf,
} from '../../../controlplane/src/tasks/task-verification.js';

const entry = (method: string, status: number | null, extra: Partial<NetworkEntry> = {}) => ({
  method,
  url: `https://shop.test/${method.toLowerCase()}`,
  kind: 'fetch' as const,
  main_frame: true,
  status,
  started_ms: 0,
  duration_ms: 5,
  bytes: 10,
  step: 1,
  ...extra,
});

describe('verification of a finished task', () => {
  it('takes the last state-changing request, not an earlier one or a later GET', () => {
    const failedLast = verdictOf(
      [entry('POST', 200), entry('PUT', 502), entry('GET', 200)],
      null,
      'done',
      true,
    );
    assert.equal(failedLast.verdict, 'unverified');
    assert.deepEqual(failedLast.evidence, [
      { method: 'PUT', url: 'https://shop.test/put', status: 502, step: 1 },
    ]);
    const recovered = verdictOf([entry('POST', 500), entry('POST', 201)], null, 'done', true);
    assert.equal(recovered.verdict, 'verified');
  });

  it('treats no response as a failure and keeps the browser error', () => {
    const lost = verdictOf([entry('DELETE', null, { error: 'pending' })], null, 'x', true);
    assert.equal(lost.verdict, 'unverified');
    assert.match(lost.reason, /failed: pending/);
  });

  it('does not pass criteria that could not be checked, and passes ones that held', () => {
    const unchecked = { unverified: ['a green tick is shown (no vision judge configured)'] };
    assert.equal(verdictOf([entry('POST', 200)], unchecked, 'ok', true).verdict, 'unverified');
    assert.equal(verdictOf([], { unverified: [] }, 'sent', true).verdict, 'verified');
  });

  it('calls a claimed change with nothing sent unverified, a read-only answer unchecked', () => {
    assert.equal(verdictOf([], null, 'Payment of EUR 4,999 completed', true).verdict, 'unverified');
    assert.equal(verdictOf([], null, 'Your message was sent.', true).verdict, 'unverified');
    assert.equal(
      verdictOf([entry('GET', 200)], null, 'The price is 12.50', true).verdict,
      'unchecked',
    );
    // The desktop reports no requests: nothing can be held against its claims.
    assert.equal(verdictOf([], null, 'Payment completed', false).verdict, 'unchecked');
  });

  it('reads the requests and the criteria check from the run events; the MCP text shows it', () => {
    const ledger = createEvidenceLedger(true);
    const network = { entries: [entry('POST', 500)], dropped: 0 };
    ledger.record({ type: 'actions-executed', step: 2, executed: [], executeMs: 1, network });
    ledger.record({ type: 'done-verified', step: 3, missing: [], unverified: [] });
    const verification = ledger.verdict('Submitted!');
    assert.equal(verification.verdict, 'unverified');
    assert.equal(verification.evidence[0]?.step, 2);
    const result = {
      status: 'finished' as const,
      summary: 'Submitted!',
      result_data: null,
      trace_id: 't',
      step_count: 3,
      final_screenshot_path: null,
    };
    const text = renderResultText({ ...result, verification });
    const lines: string[] = [];
    createProgressPrinter(5, (line) => lines.push(line))({
      type: 'task-ended',
      result: { ...result, verification },
    });
    assert.deepEqual(lines, [`verification: ${verification.verdict} — ${verification.reason}`]);
    assert.match(
      text,
      /^verification: unverified — the last state-changing request \(POST https:\/\/shop.test\/post\) failed: HTTP 500$/m,
    );
  });
});

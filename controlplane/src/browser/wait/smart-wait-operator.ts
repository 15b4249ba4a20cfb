// UI-TARS `wait()` as a watch instead of a blind sleep: a batch that is a single `wait` action is
// answered by the wait engine — it returns once the screen has changed and then stayed still for
// `settleMs` (or for `quickSettleMs` while the page reports nothing loading and no request in
// flight), or after the model's wait time when nothing happens (never later than the blind sleep). A wait that short polls at least every 500 ms: a still screen's back-off to 3 s would
// see the page's change late. Every other batch goes to the wrapped operator unchanged.
import type { ActionsResponse } from '@clawdie/kit/jail-api';
import type { BrowserOperator } from '../operator/browser-operator.js';
import { operatorFrames } from './jail-page-probe.js';
import type { WaitEngine } from './wait-engine.js';

export interface SmartWaitOptions {
  /** Quiet time after a change that counts as settled; default 1000 ms. */
  settleMs?: number;
  /**
   * Quiet time that is enough when the page also reports nothing loading and its network idle
   * for as long (its `network_idle_ms`); default 500 ms. A desktop screen has no such signal.
   */
  quickSettleMs?: number;
  /** Display key for capture serialisation (one per screen). */
  key?: string;
}

/** The longest gap between two captures of a smart wait. */
const SMART_MAX_POLL_MS = 500;

let counter = 0;

export function withSmartWait(
  operator: BrowserOperator,
  engine: WaitEngine,
  options: SmartWaitOptions = {},
): BrowserOperator {
  const frames = operatorFrames(operator, options.key ?? `operator-${++counter}`, {
    hideCaret: true,
  });
  const settleMs = options.settleMs ?? 1000;
  const quickMs = Math.min(settleMs, options.quickSettleMs ?? 500);
  const probe = { state: (signal?: AbortSignal) => operator.state(signal) };
  return {
    screenshot: (signal, options) => operator.screenshot(signal, options),
    state: (signal) => operator.state(signal),
    landing: (action, signal) => operator.landing(action, signal),
    async execute(actions, signal): Promise<ActionsResponse> {
      const [only] = actions;
      if (actions.length !== 1 || only?.type !== 'wait' || only.ms === 0) {
        return operator.execute(actions, signal);
      }
      const started = performance.now();
      const outcome = await engine.start({
        conditions: [{ type: 'stable', ms: settleMs, afterChange: true, quickMs }],
        timeoutMs: only.ms,
        target: { frames, probe },
        settings: { maxPollMs: SMART_MAX_POLL_MS },
        ...(signal ? { signal } : {}),
      }).outcome;
      signal?.throwIfAborted();
      const state = await operator.state(signal);
      const failed = outcome.status === 'failed';
      return {
        results: [
          {
            index: 0,
            type: 'wait',
            status: failed ? 'error' : 'ok',
            duration_ms: Math.round(performance.now() - started),
            navigated: false,
            ...(failed
              ? { error: { code: 'ACTION_FAILED' as const, message: outcome.detail } }
              : {}),
          },
        ],
        state,
      };
    },
  };
}

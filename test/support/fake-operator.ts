import type { Action, ActionResult, ActionsResponse, PageState } from '@clawdie/jail-service/api';
import { actionPoints } from '@clawdie/jail-service/api';
import sharp from 'sharp';
import { OperatorError } from '../../controlplane/src/errors.js';
import type {
  BrowserOperator,
  Screenshot,
} from '../../controlplane/src/operator/browser-operator.js';

export interface FakeOperatorOptions {
  viewport?: { width: number; height: number };
  devicePixelRatio?: number;
  /** Return an error result for actions of this type. */
  failType?: Action['type'];
  /** Reject the whole batch (HTTP 400) when it holds an action of this type. */
  rejectType?: Action['type'];
  /** Throw OPERATOR_UNAVAILABLE from the n-th call (1-based) on, as a dead jail-service would. */
  dieAfterCalls?: number;
}

/** An in-memory BrowserOperator: solid-colour JPEGs of the right size, records every action. */
export function createFakeOperator(options: FakeOperatorOptions = {}) {
  const viewport = options.viewport ?? { width: 1280, height: 800 };
  const dpr = options.devicePixelRatio ?? 1;
  const executed: Action[] = [];
  let calls = 0;
  let url = 'about:blank';
  let frame: Buffer | null = null;

  const guard = (signal?: AbortSignal) => {
    signal?.throwIfAborted();
    calls += 1;
    if (options.dieAfterCalls !== undefined && calls >= options.dieAfterCalls) {
      throw new OperatorError('OPERATOR_UNAVAILABLE', 'jail-service /screenshot: ECONNREFUSED');
    }
  };

  const operator: BrowserOperator = {
    async screenshot(signal): Promise<Screenshot> {
      guard(signal);
      const width = Math.round(viewport.width * dpr);
      const height = Math.round(viewport.height * dpr);
      frame ??= await sharp({ create: { width, height, channels: 3, background: '#3a6ea5' } })
        .jpeg()
        .toBuffer();
      return {
        jpeg: frame,
        meta: {
          viewportWidth: viewport.width,
          viewportHeight: viewport.height,
          devicePixelRatio: dpr,
          imageWidth: width,
          imageHeight: height,
        },
      };
    },
    async execute(actions, signal): Promise<ActionsResponse> {
      guard(signal);
      for (const action of actions) {
        if (action.type === options.rejectType) {
          throw new OperatorError(
            'OPERATOR_REJECTED',
            `jail-service /actions: UNKNOWN_KEY: no such key`,
          );
        }
        for (const point of actionPoints(action)) {
          if (point.x >= viewport.width || point.y >= viewport.height) {
            throw new OperatorError(
              'OPERATOR_REJECTED',
              `jail-service /actions: OUT_OF_RANGE: (${point.x}, ${point.y})`,
            );
          }
        }
      }
      const results: ActionResult[] = [];
      let failed = false;
      for (const [index, action] of actions.entries()) {
        if (failed) {
          results.push({
            index,
            type: action.type,
            status: 'skipped',
            duration_ms: 0,
            navigated: false,
          });
          continue;
        }
        executed.push(action);
        if (action.type === options.failType) {
          failed = true;
          results.push({
            index,
            type: action.type,
            status: 'error',
            duration_ms: 1,
            navigated: false,
            error: { code: 'ACTION_FAILED', message: 'scripted failure' },
          });
          continue;
        }
        if (action.type === 'navigate' || action.type === 'open_url') url = action.url;
        results.push({
          index,
          type: action.type,
          status: 'ok',
          duration_ms: 1,
          navigated: action.type === 'navigate',
        });
      }
      return { results, state: { url, title: 'fake', loading: false } };
    },
    async state(signal): Promise<PageState> {
      guard(signal);
      return { url, title: 'fake', loading: false };
    },
  };
  return { operator, executed, calls: () => calls };
}

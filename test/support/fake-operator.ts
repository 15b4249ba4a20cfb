import type {
  Action,
  ActionResult,
  ActionsResponse,
  LandingResponse,
  PageState,
} from '@clawdie/kit/jail-api';
import { actionPoints } from '@clawdie/kit/jail-api';
import sharp from 'sharp';
import type {
  BrowserOperator,
  Screenshot,
} from '../../controlplane/src/browser/operator/browser-operator.js';
import { OperatorError } from '../../controlplane/src/errors.js';
import { createFakePages, type FakePage } from './fake-landing.js';

export interface FakeOperatorOptions {
  viewport?: { width: number; height: number };
  devicePixelRatio?: number;
  /** Return an error result for actions of this type. */
  failType?: Action['type'];
  /** Reject the whole batch (HTTP 400) when it holds an action of this type. */
  rejectType?: Action['type'];
  /** Throw OPERATOR_UNAVAILABLE from the n-th call (1-based) on, as a dead jail-service would. */
  dieAfterCalls?: number;
  /** Pages by URL, with regions (frames, fields, links, forms) for `landing` (fake-landing.ts). */
  pages?: Record<string, FakePage>;
  /** Runs just before each action is dispatched (after `landing`): the page may move on here. */
  beforeAction?: (action: Action, pages: ReturnType<typeof createFakePages>) => void;
}

/** An in-memory BrowserOperator: solid-colour JPEGs of the right size, records every action. */
export function createFakeOperator(options: FakeOperatorOptions = {}) {
  const viewport = options.viewport ?? { width: 1280, height: 800 };
  const dpr = options.devicePixelRatio ?? 1;
  /** The input the page got (without the jail-service's `expect` / `secret` checks). */
  const executed: Action[] = [];
  /** Every action as the operator received it, checks included (also those refused). */
  const sent: Action[] = [];
  /** Each `type` that ran: its text and where it went (the focused field's frame and kind). */
  const typed: { text: string; origin: string; field: string | undefined }[] = [];
  const landings: Action[] = [];
  let calls = 0;
  const pages = createFakePages(options.pages);
  const state = (): PageState => ({
    url: pages.url(),
    title: 'fake',
    loading: false,
    document_id: pages.documentId(),
  });
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
      sent.push(...actions);
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
        options.beforeAction?.(action, pages);
        const refused = pages.check(action);
        if (refused) {
          failed = true;
          results.push({
            index,
            type: action.type,
            status: 'error',
            duration_ms: 1,
            navigated: false,
            error: refused,
          });
          continue;
        }
        executed.push(asDispatched(action));
        if (action.type === 'type') typed.push({ text: action.text, ...pages.focused() });
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
        const navigated = pages.apply(action);
        results.push({ index, type: action.type, status: 'ok', duration_ms: 1, navigated });
      }
      return { results, state: state() };
    },
    async state(signal): Promise<PageState> {
      guard(signal);
      return state();
    },
    async landing(action, signal): Promise<LandingResponse> {
      guard(signal);
      landings.push(action);
      // The jail-service validates the action in /landing as in /actions: the same 400.
      if (action.type === options.rejectType)
        throw new OperatorError(
          'OPERATOR_REJECTED',
          'jail-service /landing: UNKNOWN_KEY: no such key',
        );
      return pages.landing(action);
    },
  };
  return { operator, executed, sent, typed, landings, pages, calls: () => calls };
}

/** An action as input: the fields the jail-service checks before dispatching it left out. */
function asDispatched(action: Action): Action {
  const {
    expect: _expect,
    secret: _secret,
    ...input
  } = action as Action & {
    expect?: unknown;
    secret?: unknown;
  };
  return input as Action;
}

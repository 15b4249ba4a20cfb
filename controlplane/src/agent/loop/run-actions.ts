// The browser actions of one reply, each judged where and when it lands (issue 20): for each in
// order, its landing, the gate's decision against it, then that action alone with `expect` set
// from the landing (the jail-service re-checks it right before input). When the page changed
// (a navigation, a new document, a popup) the rest of the reply is dropped: it was written for a
// page that is gone.
import type { Action, ActionResult, NetworkEvidence } from '@clawdie/kit/jail-api';
import { mergeEvidence } from '../../browser/operator/network-evidence.js';
import { elapsedMs } from '../../clock.js';
import { OperatorError } from '../../errors.js';
import type { RefusalKind } from '../../governance/policy/gate-types.js';
import {
  type ActionLanding,
  expectOf,
  needsLanding,
} from '../../governance/policy/landing-facts.js';
import type { PlannedStep } from '../uitars/index.js';
import type { ExecutedAction, LoopDeps } from './loop-types.js';

type BrowserStep = Extract<PlannedStep, { kind: 'browser' }>;

/** How a reply's actions ended; `ran` lists what was sent to the browser, in order. */
export type ActionsOutcome =
  | { kind: 'done' }
  | { kind: 'failed'; message: string }
  | { kind: 'refused'; message: string; refusal: RefusalKind; endTask: boolean }
  | { kind: 'page-changed'; message: string };

/** Page identity as last seen: from a landing or an action's response. */
interface Seen {
  url: string | null;
  documentId: string | null;
}

export async function runActions(
  step: number,
  batch: readonly BrowserStep[],
  deps: LoopDeps,
): Promise<ActionsOutcome> {
  const started = performance.now();
  const executed: ExecutedAction[] = [];
  let network: NetworkEvidence | undefined;
  let seen = await baseline(batch, deps);
  let outcome: ActionsOutcome = { kind: 'done' };
  try {
    for (const [index, planned] of batch.entries()) {
      const landing = await landingOf(planned.action, seen, deps).catch((error: unknown) => {
        // The jail-service refused the action itself (400: e.g. an unknown key name): the
        // model's mistake, reported like a rejected action; nothing runs.
        if (!(error instanceof OperatorError && error.code === 'OPERATOR_REJECTED')) throw error;
        return rejected(planned.action, index, error);
      });
      if ('status' in landing) {
        executed.push({ planned, result: landing });
        outcome = failure(planned, landing, index, batch.length);
        break;
      }
      seen = { url: landing.url, documentId: landing.documentId || seen.documentId };
      const verdict = await deps.gate(
        { step, action: { action: planned.action, index, count: batch.length, landing } },
        deps.signal,
      );
      if (!verdict.allowed) {
        outcome = {
          kind: 'refused',
          message: verdict.message,
          refusal: verdict.kind,
          endTask: verdict.endTask === true,
        };
        break;
      }
      const pinned = expectOf(planned.action, landing);
      if (pinned === 'invalid') {
        const message = `${name(planned)} (action ${index + 1} of ${batch.length}) was not run: where it lands cannot be pinned (too many frames or too long a destination).`;
        outcome = { kind: 'refused', message, refusal: 'landing_changed', endTask: false };
        break;
      }
      const action: Action = pinned
        ? ({ ...planned.action, expect: pinned } as Action)
        : planned.action;
      const { result, state, evidence } = await runOne(action, index, deps);
      network = mergeEvidence(network, evidence);
      executed.push({ planned, result: { ...result, index } });
      if (result.status === 'error') {
        outcome = failure(planned, result, index, batch.length);
        break;
      }
      const after = state?.document_id || null;
      const changed =
        result.navigated ||
        (after !== null && seen.documentId !== null && after !== seen.documentId);
      seen = { url: state?.url ?? null, documentId: after ?? seen.documentId };
      const left = batch.length - index - 1;
      if (changed && left > 0) {
        const message = `The page changed after action ${index + 1} (${name(planned)}); the remaining ${left} action${left === 1 ? ' was' : 's were'} not run. Look at the new page before acting on it.`;
        outcome = { kind: 'page-changed', message };
        break;
      }
    }
  } finally {
    // When anything was sent, what was not is accounted for too: skipped, after the action that
    // ended the reply. A reply refused at its first action sent nothing (its refusal is audited).
    const sent = executed.length;
    for (const [index, planned] of batch.entries())
      if (index >= sent) executed.push({ planned, result: skipped(planned, index) });
    if (sent > 0)
      await deps.emit({
        type: 'actions-executed',
        step,
        executed,
        executeMs: elapsedMs(started),
        ...(network ? { network } : {}),
      });
  }
  return outcome;
}

/**
 * What the page is before the reply runs, when its first action takes no landing and others
 * follow (a page change after it must be noticed); else nothing yet (the first landing says).
 */
async function baseline(batch: readonly BrowserStep[], deps: LoopDeps): Promise<Seen> {
  const first = batch[0];
  if (batch.length < 2 || !first || needsLanding(first.action))
    return { url: null, documentId: null };
  const state = await deps.operator.state(deps.signal);
  return { url: state.url, documentId: state.document_id || null };
}

/** The landing of an action that lands somewhere; for the others, what is known of the page. */
async function landingOf(action: Action, seen: Seen, deps: LoopDeps): Promise<ActionLanding> {
  if (!needsLanding(action)) return { url: seen.url, documentId: seen.documentId, target: null };
  const landing = await deps.operator.landing(action, deps.signal);
  return { url: landing.url, documentId: landing.document_id, target: landing.target };
}

/** Runs one action; a 400 from the jail-service is the model's mistake, not an outage. */
async function runOne(action: Action, index: number, deps: LoopDeps) {
  try {
    const response = await deps.operator.execute([action], deps.signal);
    const result = response.results[0] ?? skippedResult(action, index);
    return { result, state: response.state, evidence: response.evidence };
  } catch (error) {
    if (!(error instanceof OperatorError && error.code === 'OPERATOR_REJECTED')) throw error;
    return { result: rejected(action, index, error), state: null, evidence: undefined };
  }
}

function rejected(action: Action, index: number, error: OperatorError): ActionResult {
  return {
    index,
    type: action.type,
    status: 'error',
    duration_ms: 0,
    navigated: false,
    error: { code: 'BAD_REQUEST', message: error.message },
  };
}

function failure(
  planned: BrowserStep,
  result: ActionResult,
  index: number,
  count: number,
): ActionsOutcome {
  const where = `${name(planned)} (action ${index + 1} of ${count})`;
  const code = result.error?.code;
  if (code === 'LANDING_CHANGED') {
    const message = `The page changed before ${where} ran: it and the actions after it were not run. Look at the new page before acting on it.`;
    return { kind: 'refused', message, refusal: 'landing_changed', endTask: false };
  }
  if (code === 'FOCUS_MISMATCH') {
    const message = `${where} was refused: the focus was not in the field the secret is for, and nothing was typed.`;
    return { kind: 'refused', message, refusal: 'credential_field', endTask: false };
  }
  const detail = result.error ? `${result.error.code}: ${result.error.message}` : 'failed';
  return { kind: 'failed', message: `${where} — ${detail}` };
}

function name(planned: BrowserStep): string {
  return planned.modelAction.name;
}

function skipped(planned: BrowserStep, index: number): ActionResult {
  return skippedResult(planned.action, index);
}

function skippedResult(action: Action, index: number): ActionResult {
  return { index, type: action.type, status: 'skipped', duration_ms: 0, navigated: false };
}

import type { Logger } from 'pino';
import type { BrowserOperator } from '../../browser/operator/browser-operator.js';
import type { RunEvents } from '../../tasks/run-stream.js';
import type { TaskPlan } from '../../tasks/task-plan.js';
import type { ApprovalRecord, Approver } from '../approvals/approval-types.js';
import type { NoticeSender } from '../approvals/notice-sender.js';
import { type AuditLog, discardAuditLog } from '../audit/audit-log.js';
import { refuseSecretPlaceholders } from '../credentials/placeholder-guard.js';
import { createActionGate } from './action-gate.js';
import type { ActionGate } from './gate-types.js';
import type { SecretEntry } from './policy-schema.js';
import { relayStuckEvents } from './stuck-notices.js';
import { unpolicedGate } from './unpoliced-gate.js';

/** What one running task is guarded by; built from its plan once it holds its browser. */
export interface TaskGuard {
  gate: ActionGate;
  /** Wraps the loop's operator: secret placeholders are refused, or filled after an approval. */
  wrapOperator: (operator: BrowserOperator) => BrowserOperator;
  /** Called once when the task has ended (stops its stuck notices). Must not throw. */
  close(): void;
}

/** Where a task's guard is built: its id, the browser it leased, its run's event stream. */
export interface GuardTarget {
  taskId: string;
  browser: BrowserOperator;
  events: RunEvents;
  /** Told when an approval of this task is pending and when it is answered; must not throw. */
  approvals?: ApprovalWatch | undefined;
}

export interface ApprovalWatch {
  pending(approval: ApprovalRecord): void;
  settled(): void;
}

/** The approver as one task sees it: each request it waits on is reported to `watch`. */
function watched(approver: Approver | undefined, watch: ApprovalWatch | undefined) {
  if (!approver || !watch) return approver;
  return {
    request: (request, signal) =>
      approver.request({ ...request, onPending: watch.pending }, signal).finally(watch.settled),
  } satisfies Approver;
}

export type TaskGuards = (plan: TaskPlan, target: GuardTarget) => TaskGuard;

export interface TaskGuardsDeps {
  audit?: AuditLog | undefined;
  logger: Logger;
  /** Absent: every `needs_approval` is refused. */
  approver?: Approver | undefined;
  /** Supervisor notices (Telegram): each `stuck` event of a policed task is sent once. */
  notices?: NoticeSender | undefined;
  /** Credential support for `supervisor_approved` tasks (credentials/task-credentials.ts). */
  credentials?:
    | ((
        taskId: string,
        tenant: string,
        actor: string,
        secrets: readonly SecretEntry[],
      ) => {
        wrapOperator(operator: BrowserOperator): BrowserOperator;
        onSecretApproved(name: string, host: string): Promise<void>;
      })
    | undefined;
}

/**
 * The guard of each task, derived from its plan alone: a policy plan gets the action gate for its
 * policy (screenshots and URL from the browser it leased), an `allow-all` plan `unpolicedGate` over its own domains.
 * There is no lookup that can come back empty, so a policed task never runs ungated.
 */
export function createTaskGuards(deps: TaskGuardsDeps): TaskGuards {
  const audit = deps.audit ?? discardAuditLog;
  return (plan, { taskId, browser, events, approvals }) => {
    const { rules, tenant, actor } = plan;
    const guarded = (operator: BrowserOperator) =>
      refuseSecretPlaceholders(operator, { taskId, actor, audit });
    if (rules.kind === 'allow-all')
      return {
        gate: unpolicedGate(plan.input.domains),
        wrapOperator: guarded,
        close: () => undefined,
      };
    const credentials =
      rules.credentialMode === 'supervisor_approved'
        ? deps.credentials?.(taskId, tenant, actor, rules.policy.credentials.secrets)
        : undefined;
    const gate = createActionGate({
      taskId,
      tenant,
      actor,
      policy: rules.policy,
      taskDomains: rules.domains,
      credentialMode: rules.credentialMode,
      operator: browser,
      audit,
      logger: deps.logger,
      approver: watched(deps.approver, approvals),
      onSecretApproved: credentials?.onSecretApproved,
    });
    const unsubscribe = deps.notices
      ? relayStuckEvents({
          events,
          taskId,
          tenant,
          operator: browser,
          send: deps.notices,
          logger: deps.logger,
        })
      : undefined;
    return {
      gate,
      wrapOperator: credentials
        ? (operator) => credentials.wrapOperator(guarded(operator))
        : guarded,
      close: () => unsubscribe?.(),
    };
  };
}

import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import {
  createTelegramNotifier,
  type TelegramNotifier,
} from '../../ingress/telegram/telegram-notifier.js';
import type { NotifyChannel } from '../../platform/notify/notify-channel.js';
import type { Stores } from '../../platform/store/stores.js';
import type { TaskRepository } from '../../platform/store/task-repository.js';
import { type ApprovalService, createApprovalService } from '../approvals/approval-service.js';
import { createNoticeSender, type NoticeSender } from '../approvals/notice-sender.js';
import type { AuditLog } from '../audit/audit-log.js';
import { createGrantAuthority } from '../credentials/grant-authority.js';
import { createKeyFileVault, type SecretVault } from '../credentials/secret-vault.js';
import { createTaskCredentials } from '../credentials/task-credentials.js';
import { loadPolicies, type PolicySet } from './load-policies.js';
import { allowAllAdmission, createPolicyAdmission, type TaskAdmission } from './task-admission.js';
import { createTaskGuards, type TaskGuards } from './task-guards.js';

export interface TaskSecurity {
  policies: PolicySet;
  approvals: ApprovalService;
  /** Its key is read on first use (`clawdie secret set` creates it, also while the server runs). */
  vault: SecretVault;
  /** Admission under the tenant policies (audited), for `TaskServiceDeps.admission`. */
  admission: TaskAdmission;
  /** Admission without a policy, for the labelled demo (`unpolicedGate`). */
  unpoliced: TaskAdmission;
  /** Each task's gate from its plan: action gate, approvals, credentials, stuck notices. */
  guards: TaskGuards;
  /** Supervisor notices (Telegram when configured): stuck tasks, takeover requests. */
  notices: NoticeSender | undefined;
  close(): Promise<void>;
}

export interface TaskSecurityDeps {
  config: Readonly<Config>;
  stores: Pick<Stores, 'approvals' | 'secrets' | 'sessionProfiles' | 'roleLock'>;
  audit: AuditLog;
  clock: Clock;
  logger: Logger;
  /** Approval ids; default `randomUUID`. */
  newId?: () => string;
  /** A vision judge is configured (else tasks with visual conditions are refused at admission). */
  visualJudge?: boolean;
  /** The task store: `files[].artifact_of_task` must name a task of the same tenant (absent: none does). */
  tasks?: Pick<TaskRepository, 'getTask'>;
  /** The tenant policies, when the caller loaded them first (before any child started). */
  policies?: PolicySet | undefined;
  /** How replicas announce answered approvals to each other (approval-service.ts); absent: none. */
  notify?: NotifyChannel | undefined;
}

/**
 * Builds policy, approvals (API always, Telegram when configured and started in the background —
 * polled by one replica at a time on PostgreSQL; Telegram then also gets each task's stuck reports), the secrets vault and grants. Throws
 * PolicyFileError at start-up for a bad policy file.
 */
export function createTaskSecurity(deps: TaskSecurityDeps): TaskSecurity {
  const { config, audit, logger } = deps;
  const policies = deps.policies ?? loadPolicies(config.policyDir);
  const approvals = createApprovalService({
    store: deps.stores.approvals,
    audit,
    clock: deps.clock,
    logger,
    newId: deps.newId ?? randomUUID,
    notify: deps.notify,
  });
  let telegram: TelegramNotifier | null = null;
  let notices: NoticeSender | undefined;
  if (config.telegram) {
    // Replicas on PostgreSQL: one polls the bot at a time (its id names the lock); all send.
    const bot = config.telegram.token.split(':')[0] ?? '';
    const pollingLock = deps.stores.roleLock(`telegram-poll:${bot}`, config.replicas.heartbeatMs);
    telegram = createTelegramNotifier({
      ...config.telegram,
      approvals,
      audit,
      logger,
      pollingLock,
    });
    approvals.attach(telegram);
    notices = createNoticeSender({ notifiers: [telegram], audit, logger });
    telegram.start();
  }
  const vault = createKeyFileVault(deps.stores.secrets, config.secretsKeyFile);
  const grants = createGrantAuthority();
  return {
    policies,
    approvals,
    vault,
    admission: createPolicyAdmission({
      policies,
      audit,
      defaults: {
        maxSteps: config.loop.maxSteps,
        visualJudge: deps.visualJudge,
        profile: config.model.profile,
      },
      sessions: deps.stores.sessionProfiles.meta,
      artifacts: {
        ownsTask: async (tenant, id) => (await deps.tasks?.getTask(id, tenant)) != null,
        dataDir: config.dataDir,
      },
      now: deps.clock.now,
    }),
    unpoliced: allowAllAdmission('the labelled replay demo runs without a tenant policy', {
      maxSteps: config.loop.maxSteps,
      visualJudge: deps.visualJudge,
      profile: config.model.profile,
    }),
    guards: createTaskGuards({
      audit,
      logger,
      approver: approvals,
      notices,
      credentials: (taskId, tenant, actor, secrets) =>
        createTaskCredentials({ taskId, tenant, actor, vault, grants, secrets, audit, logger }),
    }),
    notices,
    async close() {
      await telegram?.stop();
      await approvals.close();
    },
  };
}

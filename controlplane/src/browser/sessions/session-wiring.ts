import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Approver } from '../../governance/approvals/approval-types.js';
import type { AuditLog } from '../../governance/audit/audit-log.js';
import { loadVaultKey } from '../../governance/credentials/secret-vault.js';
import type { Stores } from '../../platform/store/stores.js';
import type { TaskRepository } from '../../platform/store/task-repository.js';
import { createJailSessionClient } from '../operator/jail-session-client.js';
import type { JailEndpoint } from '../provider/browser-provider.js';
import type { TaskBrowsers } from '../provider/task-browsers.js';
import { createSessionInjector, type LeasePreparer } from './session-injector.js';
import {
  createSessionProfileService,
  type SessionProfileService,
} from './session-profile-service.js';

export interface SessionProfiles {
  service: SessionProfileService;
  /** For `TaskServiceDeps.prepareLease`. */
  prepareLease: LeasePreparer;
  /** Stops the periodic sweep of expired profiles. */
  close(): void;
}

const SWEEP_EVERY_MS = 60_000;

/**
 * Session profiles over the platform's store, vault key (CLAWDIE_SECRETS_KEY_FILE, created on
 * the first save), task rows and live leases.
 */
export function createSessionProfiles(deps: {
  config: Readonly<Config>;
  stores: Pick<Stores, 'sessionProfiles'>;
  audit: AuditLog;
  clock: Clock;
  repository: TaskRepository;
  browsers: TaskBrowsers;
  approver: Approver;
  logger: Logger;
}): SessionProfiles {
  const { config } = deps;
  const transferFor = (service: JailEndpoint) =>
    createJailSessionClient({
      url: service.url,
      token: service.token,
      ...(service.fetch ? { fetch: service.fetch } : {}),
    });
  const service = createSessionProfileService({
    store: deps.stores.sessionProfiles,
    key: () => loadVaultKey(config.secretsKeyFile, { create: true }),
    audit: deps.audit,
    clock: deps.clock,
    defaultTtlS: config.sessionTtlS,
    taskTenant: async (taskId) => (await deps.repository.getTask(taskId))?.tenant ?? null,
    transferOf: (taskId) => {
      const endpoint = deps.browsers.get(taskId)?.service;
      return endpoint ? transferFor(endpoint) : null;
    },
  });
  const logger = deps.logger.child({ module: 'sessions' });
  const sweep = async () => {
    try {
      const expired = await service.sweep();
      if (expired > 0) logger.info({ expired }, 'expired session profiles wiped');
    } catch (error) {
      logger.warn({ err: error }, 'session profile sweep failed');
    }
  };
  void sweep();
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  return {
    close: () => clearInterval(timer),
    service,
    prepareLease: createSessionInjector({
      sessions: service,
      approver: deps.approver,
      transferFor,
      logger,
    }),
  };
}

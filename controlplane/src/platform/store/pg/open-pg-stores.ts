// The PostgreSQL store bundle (CLAWDIE_DATABASE_URL): migrated under an advisory lock, LISTEN/NOTIFY
// on its own connection. Imported by open-stores.ts only when a URL is set.
import type { Logger } from 'pino';
import { AppError } from '../../../errors.js';
import { describePgUrl, type Stores } from '../stores.js';
import { createPgApprovalRepository } from './pg-approval-repository.js';
import { createPgAuditRepository } from './pg-audit-repository.js';
import { createPgDashboardSessionRepository } from './pg-dashboard-session-repository.js';
import { openPgDatabase } from './pg-database.js';
import { createPgHostRepository } from './pg-host-repository.js';
import { createPgInstanceRepository } from './pg-instance-repository.js';
import { openPgNotifyChannel } from './pg-notify-channel.js';
import { createPgRoleLock } from './pg-role-lock.js';
import { createPgSecretRepository } from './pg-secret-repository.js';
import { createPgSessionProfileRepository } from './pg-session-profile-repository.js';
import { createPgTaskEventRepository } from './pg-task-event-repository.js';
import { createPgTaskRepository } from './pg-task-repository.js';

/** CLAWDIE_DATABASE_URL names a PostgreSQL server that cannot be reached or migrated. */
export class StoreUnreachableError extends AppError {
  declare readonly code: 'STORE_UNREACHABLE';
  constructor(where: string, reason: string, cause: unknown) {
    super(
      'STORE_UNREACHABLE',
      `cannot open the PostgreSQL store at ${where} (CLAWDIE_DATABASE_URL): ${reason}`,
      { status: 503, cause },
    );
    this.name = 'StoreUnreachableError';
  }
}

/** The bundle of `url`; StoreUnreachableError (host and database, never the password) when down. */
export async function openPgStores(url: string, logger: Logger): Promise<Stores> {
  const where = describePgUrl(url);
  const log = logger.child({ module: 'pg-store', store: where });
  const opened = await openPgDatabase(url, {
    onIdleError: (error) => log.warn({ err: error }, 'an idle PostgreSQL connection failed'),
  }).catch((error: unknown) => {
    throw new StoreUnreachableError(where, (error as Error).message, error);
  });
  const { db } = opened;
  const notify = await openPgNotifyChannel({ url, pool: db.$client, logger }).catch(
    async (error: unknown) => {
      await opened.close();
      throw new StoreUnreachableError(where, (error as Error).message, error);
    },
  );
  let closed = false;
  return {
    backend: 'postgres',
    description: `PostgreSQL ${where}`,
    tasks: (owner) => createPgTaskRepository(db, owner),
    taskEvents: createPgTaskEventRepository(db),
    audit: createPgAuditRepository(db),
    approvals: createPgApprovalRepository(db),
    secrets: createPgSecretRepository(db),
    sessionProfiles: createPgSessionProfileRepository(db),
    instances: createPgInstanceRepository(db),
    hosts: createPgHostRepository(db),
    dashboardSessions: createPgDashboardSessionRepository(db),
    notify,
    roleLock: (name, retryMs) => createPgRoleLock({ url, name, logger, retryMs }),
    async close() {
      if (closed) return;
      closed = true;
      await notify.close();
      await opened.close();
    },
  };
}

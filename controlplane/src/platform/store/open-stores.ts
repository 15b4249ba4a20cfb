// Opens the store bundle the config names: SQLite at config.databasePath (the default), or the
// PostgreSQL database of CLAWDIE_DATABASE_URL, shared by every replica.
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import { createLocalNotifyChannel } from '../notify/notify-channel.js';
import { createApprovalRepository } from './approval-repository.js';
import { createAuditRepository } from './audit-repository.js';
import { createDashboardSessionRepository } from './dashboard-session-repository.js';
import { openDatabase, openDatabaseReadOnly } from './database.js';
import { createHostRepository } from './host-repository.js';
import { createInstanceRepository } from './instance-repository.js';
import { createPgApprovalRepository } from './pg/pg-approval-repository.js';
import { createPgAuditRepository } from './pg/pg-audit-repository.js';
import { createPgDashboardSessionRepository } from './pg/pg-dashboard-session-repository.js';
import { openPgDatabase } from './pg/pg-database.js';
import { createPgHostRepository } from './pg/pg-host-repository.js';
import { createPgInstanceRepository } from './pg/pg-instance-repository.js';
import { openPgNotifyChannel } from './pg/pg-notify-channel.js';
import { createPgRoleLock } from './pg/pg-role-lock.js';
import { createPgSecretRepository } from './pg/pg-secret-repository.js';
import { createPgSessionProfileRepository } from './pg/pg-session-profile-repository.js';
import { createPgTaskEventRepository } from './pg/pg-task-event-repository.js';
import { createPgTaskRepository } from './pg/pg-task-repository.js';
import { createSecretRepository } from './secret-repository.js';
import { createSessionProfileRepository } from './session-profile-repository.js';
import { describePgUrl, type Stores } from './stores.js';
import { createTaskEventRepository } from './task-event-repository.js';
import { createTaskRepository } from './task-repository.js';

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

export interface OpenStoresOptions {
  logger: Logger;
  /** SQLite: open an existing file read-only, creating nothing (`clawdie audit verify`). */
  readOnly?: boolean;
}

/**
 * The store bundle of `config`: PostgreSQL when `databaseUrl` is set (migrated under an advisory
 * lock, LISTEN/NOTIFY on its own connection), else SQLite at `databasePath` with the in-process
 * channel. Rejects with StoreUnreachableError (naming host and database, never the password)
 * when PostgreSQL cannot be reached.
 */
export async function openStores(
  config: Pick<Readonly<Config>, 'databasePath' | 'databaseUrl'>,
  options: OpenStoresOptions,
): Promise<Stores> {
  return config.databaseUrl
    ? openPgStores(config.databaseUrl, options.logger)
    : openSqliteStores(config.databasePath, options.readOnly ?? false);
}

function openSqliteStores(path: string, readOnly: boolean): Stores {
  const { db, close } = readOnly ? openDatabaseReadOnly(path) : openDatabase(path);
  const notify = createLocalNotifyChannel();
  let closed = false;
  return {
    backend: 'sqlite',
    description: `SQLite ${path}`,
    tasks: (owner) => createTaskRepository(db, owner),
    taskEvents: createTaskEventRepository(db),
    audit: createAuditRepository(db),
    approvals: createApprovalRepository(db),
    secrets: createSecretRepository(db),
    sessionProfiles: createSessionProfileRepository(db),
    instances: createInstanceRepository(db),
    hosts: createHostRepository(db),
    dashboardSessions: createDashboardSessionRepository(db),
    notify,
    roleLock: () => null,
    async close() {
      if (closed) return;
      closed = true;
      await notify.close();
      close();
    },
  };
}

async function openPgStores(url: string, logger: Logger): Promise<Stores> {
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

// Opens the store bundle the config names: SQLite at config.databasePath (the default), or the
// PostgreSQL database of CLAWDIE_DATABASE_URL, shared by every replica. The PostgreSQL side
// (pg/open-pg-stores.ts: the pg driver, drizzle's pg-core, the repositories) is imported only when
// a URL is set, so a SQLite process never loads it (test/controlplane/platform/store/
// sqlite-loads-no-pg.test.ts).
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { createLocalNotifyChannel } from '../notify/notify-channel.js';
import { createApprovalRepository } from './approval-repository.js';
import { createAuditRepository } from './audit-repository.js';
import { createDashboardSessionRepository } from './dashboard-session-repository.js';
import { openDatabase, openDatabaseReadOnly } from './database.js';
import { createHostRepository } from './host-repository.js';
import { createInstanceRepository } from './instance-repository.js';
import { createSecretRepository } from './secret-repository.js';
import { createSessionProfileRepository } from './session-profile-repository.js';
import type { Stores } from './stores.js';
import { createTaskEventRepository } from './task-event-repository.js';
import { createTaskRepository } from './task-repository.js';

export interface OpenStoresOptions {
  logger: Logger;
  /** SQLite: open an existing file read-only, creating nothing (`clawdie audit verify`). */
  readOnly?: boolean;
}

/**
 * The store bundle of `config`: PostgreSQL when `databaseUrl` is set (migrated under an advisory
 * lock, LISTEN/NOTIFY on its own connection), else SQLite at `databasePath` with the in-process
 * channel. Rejects with StoreUnreachableError (pg/open-pg-stores.ts: host and database, never the password)
 * when PostgreSQL cannot be reached.
 */
export async function openStores(
  config: Pick<Readonly<Config>, 'databasePath' | 'databaseUrl'>,
  options: OpenStoresOptions,
): Promise<Stores> {
  if (!config.databaseUrl) return openSqliteStores(config.databasePath, options.readOnly ?? false);
  const { openPgStores } = await import('./pg/open-pg-stores.js');
  return openPgStores(config.databaseUrl, options.logger);
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

// The two stores every repository contract runs against: SQLite (a temp file per database) and
// PostgreSQL (one throwaway cluster per test file, a fresh database per `fresh()`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, type TestContext } from 'node:test';
import type { AuditStore } from '../../../../../controlplane/src/governance/audit/audit-log.js';
import {
  type ApprovalStore,
  createApprovalRepository,
} from '../../../../../controlplane/src/platform/store/approval-repository.js';
import { createAuditRepository } from '../../../../../controlplane/src/platform/store/audit-repository.js';
import {
  createDashboardSessionRepository,
  type DashboardSessionStore,
} from '../../../../../controlplane/src/platform/store/dashboard-session-repository.js';
import { openDatabase } from '../../../../../controlplane/src/platform/store/database.js';
import {
  createHostRepository,
  type HostRepository,
} from '../../../../../controlplane/src/platform/store/host-repository.js';
import {
  createInstanceRepository,
  type InstanceRepository,
} from '../../../../../controlplane/src/platform/store/instance-repository.js';
import { createPgApprovalRepository } from '../../../../../controlplane/src/platform/store/pg/pg-approval-repository.js';
import { createPgAuditRepository } from '../../../../../controlplane/src/platform/store/pg/pg-audit-repository.js';
import { createPgDashboardSessionRepository } from '../../../../../controlplane/src/platform/store/pg/pg-dashboard-session-repository.js';
import { openPgDatabase } from '../../../../../controlplane/src/platform/store/pg/pg-database.js';
import { createPgHostRepository } from '../../../../../controlplane/src/platform/store/pg/pg-host-repository.js';
import { createPgInstanceRepository } from '../../../../../controlplane/src/platform/store/pg/pg-instance-repository.js';
import { createPgSecretRepository } from '../../../../../controlplane/src/platform/store/pg/pg-secret-repository.js';
import { createPgSessionProfileRepository } from '../../../../../controlplane/src/platform/store/pg/pg-session-profile-repository.js';
import { createPgTaskEventRepository } from '../../../../../controlplane/src/platform/store/pg/pg-task-event-repository.js';
import { createPgTaskRepository } from '../../../../../controlplane/src/platform/store/pg/pg-task-repository.js';
import {
  createSecretRepository,
  type SecretStore,
} from '../../../../../controlplane/src/platform/store/secret-repository.js';
import {
  createSessionProfileRepository,
  type SessionProfileStore,
} from '../../../../../controlplane/src/platform/store/session-profile-repository.js';
import {
  createTaskEventRepository,
  type TaskEventStore,
} from '../../../../../controlplane/src/platform/store/task-event-repository.js';
import {
  createTaskRepository,
  type TaskRepository,
} from '../../../../../controlplane/src/platform/store/task-repository.js';
import { requires } from '../../../../support/capabilities.js';
import {
  type PostgresCluster,
  startPostgres,
} from '../../../../support/postgres/start-postgres.js';

/** The ports with an adapter on both stores. */
export interface Repositories {
  instances: InstanceRepository;
  secrets: SecretStore;
  approvals: ApprovalStore;
  sessionProfiles: SessionProfileStore;
  hosts: HostRepository;
  dashboardSessions: DashboardSessionStore;
  audit: AuditStore;
  tasks: TaskRepository;
  taskEvents: TaskEventStore;
}

/** One connection (a process's, a replica's) to a database. */
export interface Connection extends Repositories {
  close(): Promise<void>;
}

/** An empty, migrated database; every `connect()` opens another connection to it. */
export interface FreshDatabase {
  /** `owner`: the instance id the connection's task repository records (default none). */
  connect(options?: { owner?: string }): Promise<Connection>;
}

export interface StoreBackend {
  name: string;
  /** Why this backend cannot run here, or false. */
  skip: string | false;
  /**
   * The store keeps time itself: it writes instance heartbeats by its own clock and lists their
   * age by it (PostgreSQL), rather than storing the caller's times (SQLite).
   */
  ownClock: boolean;
  fresh(): Promise<FreshDatabase>;
}

function sqliteBackend(): StoreBackend {
  let dir: string | null = null;
  let n = 0;
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    name: 'SQLite',
    skip: false,
    ownClock: false,
    async fresh() {
      dir ??= mkdtempSync(join(tmpdir(), 'clawdie-contract-'));
      const path = join(dir, `store-${++n}.db`);
      return {
        async connect(options = {}) {
          const { db, close } = openDatabase(path);
          return {
            instances: createInstanceRepository(db),
            secrets: createSecretRepository(db),
            approvals: createApprovalRepository(db),
            sessionProfiles: createSessionProfileRepository(db),
            hosts: createHostRepository(db),
            dashboardSessions: createDashboardSessionRepository(db),
            audit: createAuditRepository(db),
            tasks: createTaskRepository(db, options),
            taskEvents: createTaskEventRepository(db),
            close: async () => close(),
          };
        },
      };
    },
  };
}

function postgresBackend(): StoreBackend {
  let cluster: Promise<PostgresCluster> | null = null;
  after(async () => {
    if (cluster) await (await cluster).stop();
  });
  return {
    name: 'PostgreSQL',
    skip: requires('postgres').skip,
    ownClock: true,
    async fresh() {
      cluster ??= startPostgres();
      const url = await (await cluster).createDatabase();
      return {
        async connect(options = {}) {
          const { db, close } = await openPgDatabase(url);
          return {
            instances: createPgInstanceRepository(db),
            secrets: createPgSecretRepository(db),
            approvals: createPgApprovalRepository(db),
            sessionProfiles: createPgSessionProfileRepository(db),
            hosts: createPgHostRepository(db),
            dashboardSessions: createPgDashboardSessionRepository(db),
            audit: createPgAuditRepository(db),
            tasks: createPgTaskRepository(db, options),
            taskEvents: createPgTaskEventRepository(db),
            close,
          };
        },
      };
    },
  };
}

/** Both backends; PostgreSQL's cluster starts on first use and stops after the file's tests. */
export function storeBackends(): StoreBackend[] {
  return [sqliteBackend(), postgresBackend()];
}

/** A connection to a fresh database, closed when the test ends. */
export async function freshConnection(backend: StoreBackend, t: TestContext): Promise<Connection> {
  const connection = await (await backend.fresh()).connect();
  t.after(() => connection.close());
  return connection;
}

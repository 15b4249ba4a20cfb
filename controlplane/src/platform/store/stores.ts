// The store bundle a controlplane process works through: every repository port, from SQLite (one
// machine, the default) or PostgreSQL (CLAWDIE_DATABASE_URL, shared by replicas), plus the notify
// channel of the same backend. `open-stores.ts` opens one.
import type { AuditStore } from '../../governance/audit/audit-log.js';
import type { RoleLock } from '../lock/role-lock.js';
import type { NotifyChannel } from '../notify/notify-channel.js';
import type { ApprovalStore } from './approval-repository.js';
import type { DashboardSessionStore } from './dashboard-session-repository.js';
import type { HostRepository } from './host-repository.js';
import type { InstanceRepository } from './instance-repository.js';
import type { SecretStore } from './secret-repository.js';
import type { SessionProfileStore } from './session-profile-repository.js';
import type { TaskEventStore } from './task-event-repository.js';
import type { TaskRepository } from './task-repository-port.js';

export type StoreBackend = 'sqlite' | 'postgres';

export interface Stores {
  backend: StoreBackend;
  /** One line naming the store, never a password: `SQLite <path>` or `PostgreSQL <host>/<db>`. */
  description: string;
  /** The task traces; `owner` is the instance id recorded on the tasks this process creates. */
  tasks(options?: { owner?: string }): TaskRepository;
  /** Every task's numbered stream events (SSE from any replica). */
  taskEvents: TaskEventStore;
  audit: AuditStore;
  approvals: ApprovalStore;
  secrets: SecretStore;
  sessionProfiles: SessionProfileStore;
  /** The registry of controlplane processes on this store (PostgreSQL: the replicas). */
  instances: InstanceRepository;
  hosts: HostRepository;
  /** Dashboard admin logins by hashed id (used on PostgreSQL, so that every replica knows them). */
  dashboardSessions: DashboardSessionStore;
  /** In-process on SQLite; LISTEN/NOTIFY across replicas on PostgreSQL. */
  notify: NotifyChannel;
  /**
   * A role one replica holds at a time (Telegram polling): a session advisory lock on PostgreSQL,
   * tried again every `retryMs` (the caller closes it); null on SQLite, whose one process needs none.
   */
  roleLock(name: string, retryMs: number): RoleLock | null;
  /** Closes the channel, then the database; idempotent. */
  close(): Promise<void>;
}

/**
 * `host[:port]/database` of a PostgreSQL URL, without user or password (a unix socket URL names
 * its socket directory). Falls back to `(unparsable URL)` rather than echoing the text.
 */
export function describePgUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(unparsable URL)';
  }
  const socket = parsed.searchParams.get('host');
  const host = socket && !parsed.hostname ? socket : parsed.host || socket || 'localhost';
  const where = socket?.startsWith('/') ? `${socket} (unix socket)` : host;
  return `${where}${parsed.pathname || '/'}`;
}

import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import { type Clock, systemClock } from '../../clock.js';
import { AppError } from '../../errors.js';
import { type Db, openDatabase, openDatabaseReadOnly } from '../store/database.js';
import {
  createInstanceRepository,
  type InstanceKind,
  type InstanceRecord,
  type InstanceRepository,
} from '../store/instance-repository.js';
import { hostName, isInstanceLive, isPidAlive, type LivenessProbe } from './instance-liveness.js';

/** Another process already serves this data directory; names it so the user can reach or stop it. */
export class DataDirInUseError extends AppError {
  declare readonly code: 'DATA_DIR_IN_USE';
  readonly holder: InstanceRecord;
  constructor(dataDir: string, holder: InstanceRecord) {
    const where = holder.url ? `at ${holder.url}` : 'not listening yet';
    const via = holder.url
      ? `submit tasks to it (REST ${holder.url}/v1/tasks, MCP ${holder.url}/mcp)`
      : 'submit tasks to it once it listens';
    super(
      'DATA_DIR_IN_USE',
      `the data directory ${dataDir} is in use by a running Clawdie server (pid ${holder.pid} on ${holder.hostname}, ${where}); ${via}, stop it first, or set CLAWDIE_DATA_DIR to another directory`,
      { status: 409 },
    );
    this.name = 'DataDirInUseError';
    this.holder = holder;
  }
}

/** This process's registration in the store; see `claimDataDir`. */
export interface DataDirOwner {
  readonly id: string;
  readonly kind: InstanceKind;
  /** Records where this server listens, for the refusal message other processes print. */
  setUrl(url: string): Promise<void>;
  /** Deletes the rows of instances that are gone and returns the ids of the live ones (this one too). */
  pruneGone(): Promise<string[]>;
  /** The instances registered and live now, this one always included; deletes nothing. */
  live(): Promise<InstanceRecord[]>;
  /** Stops the heartbeat and deletes this instance's row; idempotent. */
  close(): Promise<void>;
}

export interface ClaimOptions {
  kind: InstanceKind;
  /** Named in the refusal message. */
  dataDir: string;
  logger: Logger;
  clock?: Pick<Clock, 'now'>;
  pid?: number;
  hostname?: string;
  isPidAlive?: (pid: number) => boolean;
  /** How often the heartbeat is written (default 5 s). */
  heartbeatMs?: number;
  /** A heartbeat older than this means the instance is gone (default 20 s). */
  timeoutMs?: number;
  newId?: () => string;
}

/** How often instances beat and when a silent one counts as gone; tests shorten both. */
export type LivenessTimes = Pick<ClaimOptions, 'heartbeatMs' | 'timeoutMs'>;

export const defaultHeartbeatMs = 5_000;
export const defaultInstanceTimeoutMs = 20_000;

/**
 * Registers this process in `db`'s instance table and keeps its heartbeat fresh. A running server
 * owns its data directory: while a live `server` instance is registered, every other claim is
 * refused with DataDirInUseError (checked and inserted in one write transaction, so two processes
 * starting together cannot both win). Clients (cli, mcp, embedded) may share a directory with
 * each other, since each only ever interrupts tasks whose owner is gone.
 */
export async function claimDataDir(db: Db, options: ClaimOptions): Promise<DataDirOwner> {
  return registerInstance(createInstanceRepository(db), { ...options, exclusive: true });
}

/**
 * Registers this process in `repository` with a heartbeat. `exclusive` (the data dir's claim):
 * refused with DataDirInUseError while a live `server` is registered. Not exclusive (a replica
 * on a shared PostgreSQL store): any number of servers coexist; each still prunes the gone.
 */
export async function registerInstance(
  repository: InstanceRepository,
  options: ClaimOptions & { exclusive: boolean },
): Promise<DataDirOwner> {
  const clock = options.clock ?? systemClock;
  const probe = probeOf(options);
  const now = clock.now();
  const self: InstanceRecord = {
    id: (options.newId ?? randomUUID)(),
    kind: options.kind,
    pid: options.pid ?? process.pid,
    hostname: probe.hostname,
    url: null,
    startedAt: now,
    heartbeatAt: now,
  };
  const holder = await repository.registerUnless(self, (rows) =>
    options.exclusive
      ? (rows.find((row) => row.kind === 'server' && isInstanceLive(row, probe)) ?? null)
      : null,
  );
  if (holder) throw new DataDirInUseError(options.dataDir, holder);

  const logger = options.logger.child({ module: 'data-dir-owner', instance: self.id });
  const beat = async () => {
    try {
      self.heartbeatAt = clock.now();
      if (await repository.heartbeat(self.id, self.heartbeatAt)) return;
      // Judged gone by another process (e.g. after a long suspend): our tasks may have been
      // marked INTERRUPTED meanwhile; register again so the rest are not.
      logger.error('this instance was deregistered by another process; registering again');
      await repository.registerUnless(self, () => null);
    } catch (error) {
      logger.warn({ err: error }, 'instance heartbeat failed');
    }
  };
  const timer = setInterval(beat, options.heartbeatMs ?? defaultHeartbeatMs);
  timer.unref();
  let closed = false;
  return {
    id: self.id,
    kind: self.kind,
    async setUrl(url) {
      self.url = url;
      await repository.setUrl(self.id, url);
    },
    async pruneGone() {
      const rows = await repository.list();
      const gone = rows.filter((row) => row.id !== self.id && !isInstanceLive(row, probe));
      await repository.remove(gone.map((row) => row.id));
      return rows.filter((row) => !gone.includes(row)).map((row) => row.id);
    },
    async live() {
      const rows = await repository.list();
      const others = rows.filter((row) => row.id !== self.id && isInstanceLive(row, probe));
      return [{ ...self }, ...others];
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      try {
        await repository.remove([self.id]);
      } catch (error) {
        logger.warn({ err: error }, 'could not deregister the instance');
      }
    },
  };
}

function probeOf(options: ClaimOptions): LivenessProbe {
  return {
    clock: options.clock ?? systemClock,
    hostname: options.hostname ?? hostName(),
    isPidAlive: options.isPidAlive ?? isPidAlive,
    timeoutMs: options.timeoutMs ?? defaultInstanceTimeoutMs,
  };
}

/**
 * `claimDataDir` on its own connection to the database file, closed with the claim. A live server
 * registered in an existing file refuses the claim before the file is migrated: opening it
 * applies this build's migrations, and a newer build started beside a running older server must
 * not change the schema under it.
 */
export async function claimDataDirAt(
  databasePath: string,
  options: ClaimOptions,
): Promise<DataDirOwner> {
  refuseWhileServed(databasePath, options);
  const database = openDatabase(databasePath);
  try {
    const owner = await claimDataDir(database.db, options);
    return {
      ...owner,
      async close() {
        await owner.close();
        database.close();
      },
    };
  } catch (error) {
    database.close();
    throw error;
  }
}

/**
 * Reads an existing file's registered servers without migrating it (read-only; the columns every
 * schema since the instances table has) and throws DataDirInUseError for a live one. The claim
 * after the migration checks again in its write transaction: this is the early refusal, not the
 * lock.
 */
function refuseWhileServed(databasePath: string, options: ClaimOptions): void {
  if (databasePath === ':memory:' || !existsSync(databasePath)) return;
  const { db, close } = openDatabaseReadOnly(databasePath);
  try {
    const client = db.$client;
    const table = client
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'instances'")
      .get();
    if (!table) return;
    const servers = client
      .prepare(
        `SELECT id, kind, pid, hostname, url, started_at AS startedAt, heartbeat_at AS heartbeatAt
           FROM instances WHERE kind = 'server'`,
      )
      .all() as InstanceRecord[];
    const probe = probeOf(options);
    const holder = servers.find((row) => isInstanceLive(row, probe));
    if (holder) throw new DataDirInUseError(options.dataDir, holder);
  } finally {
    close();
  }
}

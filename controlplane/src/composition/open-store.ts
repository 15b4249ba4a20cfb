import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { AuditTrail } from '../governance/audit/audit-log.js';
import { openAuditTrail } from '../governance/audit/open-audit-trail.js';
import { auditInterruptedTasks } from '../governance/audit/task-audit.js';
import type { DataDirOwner } from '../platform/ownership/data-dir-owner.js';
import { createAuditRepository } from '../platform/store/audit-repository.js';
import { tightenDataDir } from '../platform/store/data-dir-modes.js';
import { type Db, openDatabase } from '../platform/store/database.js';
import { createTaskRepository, type TaskRepository } from '../platform/store/task-repository.js';
import type { CloseStack } from './close-stack.js';

export interface OpenedStore {
  db: Db;
  repository: TaskRepository;
  /** The hash-chained, keyed audit log in the same database. */
  audit: AuditTrail;
}

/**
 * Opens the store for `owner` (data dir tightened to owner-only first), the keyed audit trail,
 * and marks the tasks of controlplanes that are gone as INTERRUPTED (audited). Releases go on
 * `stack` as they are opened.
 */
export async function openStore(
  config: Readonly<Config>,
  owner: DataDirOwner,
  deps: { logger: Logger; clock: Clock; stack: CloseStack },
): Promise<OpenedStore> {
  const { logger } = deps;
  const tightened = tightenDataDir(config.dataDir, config.databasePath);
  if (tightened.length > 0)
    logger.warn({ changes: tightened }, 'tightened data dir permissions to owner-only');
  const database = openDatabase(config.databasePath);
  deps.stack.defer(database.close);
  const repository = createTaskRepository(database.db, { owner: owner.id });
  const audit = await openAuditTrail(createAuditRepository(database.db), {
    keyFile: config.auditKeyFile,
    clock: deps.clock,
    mode: 'append',
    logger,
  });
  deps.stack.defer(audit.close);
  const interrupted = await repository.failInterrupted(deps.clock.now(), await owner.pruneGone());
  await auditInterruptedTasks(audit, interrupted, logger);
  if (interrupted.length > 0)
    logger.warn(
      { interrupted: interrupted.length },
      'marked tasks of controlplanes that are gone as INTERRUPTED',
    );
  return { db: database.db, repository, audit };
}

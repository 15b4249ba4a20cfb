import type { Config } from '../../config.js';
import { describeAudit } from '../../platform/backup/audit-check.js';
import { createBackup } from '../../platform/backup/create-backup.js';
import { restoreBackup } from '../../platform/backup/restore-backup.js';
import { printLine } from './cli-output.js';
import type { Command } from './command.js';

/**
 * `clawdie backup DEST`: safe while a server runs. Progress on stderr; the backup's path on
 * stdout. Refusals throw (the CLI prints them and exits 2).
 */
export async function runBackupCommand(
  command: Extract<Command, { name: 'backup' }>,
  config: Readonly<Config>,
): Promise<number> {
  const result = await createBackup({
    config,
    destination: command.destination,
    onProgress: printLine,
  });
  process.stdout.write(`${result.path}\n`);
  return 0;
}

/**
 * `clawdie restore BACKUP [--data-dir DIR]`: exit 0 when restored and the audit log verifies, 1
 * when restored but the audit log does not verify; refusals throw (exit 2, nothing written).
 */
export async function runRestoreCommand(
  command: Extract<Command, { name: 'restore' }>,
  config: Readonly<Config>,
): Promise<number> {
  const result = await restoreBackup({ config, source: command.source, onProgress: printLine });
  if (!result.audit) {
    printLine('restore: the backup holds no audit key; the audit log was not verified');
    return 0;
  }
  printLine(`restore: ${describeAudit(result.audit)}`);
  return result.audit.ok ? 0 : 1;
}

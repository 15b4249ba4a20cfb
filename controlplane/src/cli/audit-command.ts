import { createAuditLog } from '../audit/audit-log.js';
import { systemClock } from '../clock.js';
import type { Config } from '../config.js';
import { createAuditRepository } from '../store/audit-repository.js';
import { openDatabase } from '../store/database.js';
import { printLine } from './cli-output.js';

/**
 * `clawdie audit verify`: walks the whole hash chain of the configured database. Prints the head
 * (keep a copy elsewhere to detect truncation) or the first bad row. Exit 0 when intact, 1 when not.
 */
export function runAuditVerify(config: Readonly<Config>, json: boolean): number {
  const database = openDatabase(config.databasePath);
  try {
    const started = performance.now();
    const result = createAuditLog(createAuditRepository(database.db), systemClock).verify();
    const seconds = (performance.now() - started) / 1000;
    if (json) {
      process.stdout.write(`${JSON.stringify({ ...result, seconds })}\n`);
    } else if (result.ok) {
      printLine(
        `audit log intact: ${result.rows} rows, head seq ${result.headSeq} hash ${result.headHash} (${seconds.toFixed(2)} s)`,
      );
    } else {
      const { seq, problem, message } = result.firstBad;
      printLine(`audit log TAMPERED: first bad row ${seq} (${problem}): ${message}`);
    }
    return result.ok ? 0 : 1;
  } finally {
    database.close();
  }
}

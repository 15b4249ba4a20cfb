import { systemClock } from '../../clock.js';
import type { Config } from '../../config.js';
import { openAuditTrail } from '../../governance/audit/open-audit-trail.js';
import { printLine } from './cli-output.js';
import { openCliStores } from './cli-stores.js';

/**
 * `clawdie audit verify`: walks the whole chain of the configured database, checking each keyed
 * row's MAC with the audit key and the end against the head record kept with the key. Prints the
 * head or the first bad row. Exit 0 when intact, 1 when not; a missing database or key throws
 * (the CLI prints it and exits 2). Opens everything read-only and creates no file.
 */
export async function runAuditVerify(config: Readonly<Config>, json: boolean): Promise<number> {
  const stores = await openCliStores(config, { readOnly: true });
  try {
    const started = performance.now();
    const trail = await openAuditTrail(stores.audit, {
      keyFile: config.auditKeyFile,
      clock: systemClock,
      mode: 'verify',
    });
    const result = await trail.verify();
    const seconds = (performance.now() - started) / 1000;
    if (json) {
      process.stdout.write(`${JSON.stringify({ ...result, seconds })}\n`);
    } else if (result.ok) {
      const unkeyed = result.unkeyedRows
        ? `; rows 1–${result.unkeyedRows} predate the audit key: unkeyed, hash-chained only`
        : '';
      printLine(
        `audit log intact: ${result.rows} rows, head seq ${result.headSeq} hash ${result.headHash} (${seconds.toFixed(2)} s)${unkeyed}`,
      );
    } else {
      const { seq, problem, message } = result.firstBad;
      printLine(`audit log TAMPERED: first bad row ${seq} (${problem}): ${message}`);
    }
    return result.ok ? 0 : 1;
  } finally {
    await stores.close();
  }
}

import { existsSync } from 'node:fs';
import { openDatabaseReadOnly } from '../store/database.js';
import { createInstanceRepository, type InstanceRecord } from '../store/instance-repository.js';
import { defaultInstanceTimeoutMs } from './data-dir-owner.js';
import { hostName, isInstanceLive, isPidAlive } from './instance-liveness.js';

/**
 * The live server registered in the database at `databasePath`, or null (also when there is no
 * database). Read-only: creates nothing, registers nothing.
 */
export async function findLiveServer(
  databasePath: string,
  now = Date.now(),
): Promise<InstanceRecord | null> {
  if (!existsSync(databasePath)) return null;
  const database = openDatabaseReadOnly(databasePath);
  try {
    const probe = {
      clock: { now: () => now },
      hostname: hostName(),
      isPidAlive,
      timeoutMs: defaultInstanceTimeoutMs,
    };
    const rows = await createInstanceRepository(database.db).list();
    return rows.find((row) => row.kind === 'server' && isInstanceLive(row, probe)) ?? null;
  } finally {
    database.close();
  }
}

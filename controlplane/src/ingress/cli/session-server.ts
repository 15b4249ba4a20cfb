import { existsSync } from 'node:fs';
import type { Config } from '../../config.js';
import { defaultInstanceTimeoutMs } from '../../platform/ownership/data-dir-owner.js';
import {
  hostName,
  isInstanceLive,
  isPidAlive,
} from '../../platform/ownership/instance-liveness.js';
import { openDatabase } from '../../platform/store/database.js';
import { createInstanceRepository } from '../../platform/store/instance-repository.js';

/**
 * The URL of the live `clawdie serve` holding this data directory (its instance row), or null
 * when none runs. The CLI's session commands then go through its REST API, because a running
 * task's browser (what `session save` captures) lives in that server.
 */
export async function runningServerUrl(config: Readonly<Config>): Promise<string | null> {
  if (!existsSync(config.databasePath)) return null;
  const database = openDatabase(config.databasePath);
  try {
    const probe = {
      clock: { now: Date.now },
      hostname: hostName(),
      isPidAlive,
      timeoutMs: defaultInstanceTimeoutMs,
    };
    const server = (await createInstanceRepository(database.db).list()).find(
      (row) => row.kind === 'server' && row.url && isInstanceLive(row, probe),
    );
    return server?.url ?? null;
  } finally {
    database.close();
  }
}

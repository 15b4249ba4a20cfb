// Controlplane replicas on one PostgreSQL database for tests: a shared throwaway cluster per test
// file, a data dir per replica holding the first replica's audit key (as the operations guide
// says to copy it), each replica closed after its test.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import {
  createTestControlplane,
  type TestControlplane,
  type TestControlplaneOptions,
} from '../controlplane.js';
import { fileCluster } from './start-postgres.js';

/** A fresh database on the file's cluster (started on first use, stopped after the file). */
export const { database: freshDatabase } = fileCluster();

/** A data dir holding `from`'s audit key (none: the replica creates the key). */
export function dataDirWithKeyOf(from: string | null, t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'clawdie-replica-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  if (from) {
    mkdirSync(join(dir, 'keys'), { mode: 0o700 });
    copyFileSync(join(from, 'keys', 'audit.key'), join(dir, 'keys', 'audit.key'));
  }
  return dir;
}

/** A controlplane on `url` with its own data dir (on top of `options.env`); closed after the test. */
export async function startReplica(
  t: TestContext,
  url: string,
  dataDir: string,
  options: TestControlplaneOptions = {},
): Promise<TestControlplane> {
  const controlplane = await createTestControlplane({
    ...options,
    env: { ...options.env, CLAWDIE_DATABASE_URL: url, CLAWDIE_DATA_DIR: dataDir },
  });
  t.after(controlplane.close);
  return controlplane;
}

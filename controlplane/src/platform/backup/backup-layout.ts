// Where each file of a backup comes from and goes to. A backup stores files by role under fixed
// names; the configuration (CLAWDIE_DATA_DIR, CLAWDIE_AUDIT_KEY_FILE, CLAWDIE_SECRETS_KEY_FILE,
// CLAWDIE_AUTH_JWKS_FILE) says where they live on the source and where a restore puts them.
import { isAbsolute, join, relative } from 'node:path';
import type { Config } from '../../config.js';
import { auditHeadPath } from '../../governance/audit/audit-key.js';
import type { FileRole } from './backup-manifest.js';

type Paths = Pick<Config, 'dataDir' | 'databasePath' | 'auditKeyFile' | 'secretsKeyFile'> & {
  auth: Pick<Config['auth'], 'jwksFile'>;
};

export const DATABASE_FILE = 'clawdie.db';
export const AUDIT_HEAD_FILE = 'keys/audit.key.head';

/** The key files copied as they are (each is written once, or replaced by a rename). */
export function keyFiles(config: Paths): { role: FileRole; path: string; relative: string }[] {
  return [
    { role: 'audit-key', path: config.auditKeyFile, relative: 'keys/audit.key' },
    { role: 'secrets-key', path: config.secretsKeyFile, relative: 'secrets.key' },
    { role: 'jwks', path: config.auth.jwksFile, relative: 'auth/jwks.json' },
  ];
}

/** `traces/<taskId>/<name>` in the backup and under the data dir. */
export const traceFile = (taskId: string, name: string) => `traces/${taskId}/${name}`;

/** Where a backup file of `role` at `path` (backup-relative) goes under `config`. */
export function destinationOf(role: FileRole, path: string, config: Paths): string {
  switch (role) {
    case 'database':
      return config.databasePath;
    case 'audit-key':
      return config.auditKeyFile;
    case 'audit-head':
      return auditHeadPath(config.auditKeyFile);
    case 'secrets-key':
      return config.secretsKeyFile;
    case 'jwks':
      return config.auth.jwksFile;
    case 'trace':
      return join(config.dataDir, path);
  }
}

/** `path` relative to `dir` when it lies inside it, else null. */
export function inside(dir: string, path: string): string | null {
  const rel = relative(dir, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : null;
}

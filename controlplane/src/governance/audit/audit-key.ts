// The audit chain's MAC key: a file outside the SQLite database (default
// `<data dir>/keys/audit.key`, 0600), so write access to the database alone cannot forge rows.
import { createSecretKey, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import type { ChainKey } from './hash-chain.js';

const keyFileSchema = z.object({
  version: z.literal(1),
  /** 32 random bytes, base64. */
  key: z.string().min(1),
  /** The first row MACed with this key; earlier rows predate it (hash-chained only). */
  keyed_from: z.number().int().min(1),
  created_at: z.number().int(),
});

/** Where the head record of the chain lives: next to its key. */
export function auditHeadPath(keyFile: string): string {
  return `${keyFile}.head`;
}

/**
 * Reads the audit key file. When it does not exist: throws AppError `AUDIT_KEY_MISSING` unless
 * `create` is given, in which case it writes a fresh key (0600, directory 0700) that MACs rows
 * from `create.nextSeq()` on, and reports `created: true`. Throws `AUDIT_KEY_INVALID` for a file
 * it cannot parse (never overwrites one).
 */
export function loadAuditKey(
  file: string,
  options: { create?: { nextSeq: () => number; now: number } } = {},
): ChainKey & { created: boolean } {
  let created = false;
  if (!existsSync(file)) {
    if (!options.create) {
      throw new AppError(
        'AUDIT_KEY_MISSING',
        `the audit key ${file} does not exist: point CLAWDIE_DATA_DIR (or CLAWDIE_AUDIT_KEY_FILE) at the controlplane's, or start the controlplane once to create it`,
      );
    }
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const body = {
      version: 1,
      key: randomBytes(32).toString('base64'),
      keyed_from: options.create.nextSeq(),
      created_at: options.create.now,
    };
    // `wx`: two processes starting at once cannot both create (the loser reads the winner's key).
    try {
      writeFileSync(file, `${JSON.stringify(body)}\n`, { mode: 0o600, flag: 'wx' });
      chmodSync(file, 0o600);
      created = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  let parsed: z.infer<typeof keyFileSchema>;
  try {
    parsed = keyFileSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    throw new AppError(
      'AUDIT_KEY_INVALID',
      `${file}: not an audit key file: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const key = Buffer.from(parsed.key, 'base64');
  if (key.length !== 32)
    throw new AppError('AUDIT_KEY_INVALID', `${file}: the key must be 32 bytes`);
  return { key: createSecretKey(key), keyedFrom: parsed.keyed_from, created };
}

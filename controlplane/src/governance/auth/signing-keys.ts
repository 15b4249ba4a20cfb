import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, type JSONWebKeySet, type JWK } from 'jose';
import { z } from 'zod';
import { replaceFile } from '../../platform/store/replace-file.js';
import { KeyFileError } from './auth-errors.js';

export const signingAlgorithm = 'ES256';

const privateJwkSchema = z.looseObject({
  kty: z.literal('EC'),
  crv: z.literal('P-256'),
  x: z.string().min(1),
  y: z.string().min(1),
  d: z.string().min(1),
  kid: z.string().min(1),
  alg: z.literal(signingAlgorithm),
  created_at: z.number().int().optional(),
});
const keyFileSchema = z.object({ keys: z.array(privateJwkSchema).min(1) });
type PrivateJwk = z.infer<typeof privateJwkSchema>;

export interface SigningKeys {
  /** Public keys (every `kid` still accepted), for verification. */
  publicJwks: JSONWebKeySet;
  /** The newest key, used to sign. */
  current: { kid: string; key: CryptoKey | Uint8Array };
}

/**
 * Reads the JWKS file (private ES256 keys with `kid`, newest last). Throws KeyFileError naming
 * the file and the bad field.
 */
export async function loadSigningKeys(file: string): Promise<SigningKeys> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new KeyFileError(`${file}: cannot be read as JSON: ${(error as Error).message}`, error);
  }
  const parsed = keyFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new KeyFileError(`${file}: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  const keys = parsed.data.keys;
  const newest = keys[keys.length - 1] as PrivateJwk;
  return {
    publicJwks: { keys: keys.map(publicPart) },
    current: { kid: newest.kid, key: await importJWK(newest, signingAlgorithm) },
  };
}

function publicPart(jwk: PrivateJwk): JWK {
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, kid: jwk.kid, alg: jwk.alg, use: 'sig' };
}

/**
 * Adds a fresh ES256 key (new `kid`) to the JWKS file, creating it (mode 0600) if needed, and
 * drops all but the newest `keep` keys. Tokens signed by a dropped key stop verifying.
 * Returns the new `kid`. The write is atomic (temp file + rename).
 */
export async function rotateSigningKeys(
  file: string,
  options: { keep: number; now: number },
): Promise<{ kid: string; kept: string[] }> {
  let existing: PrivateJwk[] = [];
  try {
    existing = keyFileSchema.parse(JSON.parse(await readFile(file, 'utf8'))).keys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new KeyFileError(`${file}: refusing to overwrite an unreadable key file`, error);
    }
  }
  const { privateKey } = await generateKeyPair(signingAlgorithm, { extractable: true });
  const kid = `${new Date(options.now).toISOString().slice(0, 10)}-${randomBytes(6).toString('hex')}`;
  const jwk = {
    ...(await exportJWK(privateKey)),
    kid,
    alg: signingAlgorithm,
    created_at: options.now,
  };
  const keys = [...existing, privateJwkSchema.parse(jwk)].slice(-Math.max(1, options.keep));
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await replaceFile(file, `${JSON.stringify({ keys }, null, 2)}\n`);
  return { kid, kept: keys.map((key) => key.kid) };
}

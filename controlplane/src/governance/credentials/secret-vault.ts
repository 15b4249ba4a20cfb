import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { AppError } from '../../errors.js';
import type { SealedSecret, SecretStore } from '../../platform/store/secret-repository.js';

/** Secrets by tenant and name, encrypted at rest with AES-256-GCM. */
export interface SecretVault {
  put(tenant: string, name: string, value: string): Promise<void>;
  /** The plaintext, or null when there is no such secret. Rejects when the ciphertext was altered. */
  reveal(tenant: string, name: string): Promise<string | null>;
  names(tenant: string): Promise<string[]>;
}

/**
 * The vault over a store. Each value gets a fresh 96-bit IV; the tenant and name are the
 * additional authenticated data, so a ciphertext copied to another row no longer decrypts.
 * The 32-byte key lives outside the database (CLAWDIE_SECRETS_KEY_FILE).
 */
export function createSecretVault(
  store: SecretStore,
  key: Buffer,
  now: () => number = Date.now,
): SecretVault {
  if (key.length !== 32) throw new Error('the secrets key must be 32 bytes');
  const aad = (tenant: string, name: string) => Buffer.from(`${tenant}\u0000${name}`);
  return {
    async put(tenant, name, value) {
      await store.put(tenant, name, sealText(key, aad(tenant, name), value), now());
    },
    async reveal(tenant, name) {
      const sealed = await store.get(tenant, name);
      if (!sealed) return null;
      try {
        return openText(key, aad(tenant, name), sealed);
      } catch (error) {
        throw new AppError(
          'SECRET_UNREADABLE',
          `secret ${name} cannot be decrypted (wrong key or altered)`,
          { cause: error },
        );
      }
    },
    names: (tenant) => store.names(tenant),
  };
}

/**
 * The vault of a running server: its key is read when a secret is first needed, not at start, so
 * a key made later by `clawdie secret set` (or a saved session) reaches it without a restart.
 * Values are always read from the store, so a secret set while the server runs is used at once.
 * Reads fail with AppError SECRETS_KEY_MISSING while there is no key.
 */
export function createKeyFileVault(store: SecretStore, keyFile: string): SecretVault {
  let vault: SecretVault | null = null;
  const current = () => {
    vault ??= createSecretVault(store, loadVaultKey(keyFile, { create: false }));
    return vault;
  };
  return {
    put: async (tenant, name, value) => current().put(tenant, name, value),
    reveal: async (tenant, name) =>
      (await store.get(tenant, name)) ? current().reveal(tenant, name) : null,
    names: (tenant) => store.names(tenant),
  };
}

/** AES-256-GCM with a fresh 96-bit IV, `aad` bound: the vault's cipher, for other sealed rows. */
export function sealText(key: Buffer, aad: Buffer, text: string): SealedSecret {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return {
    ciphertext: ciphertext.toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
  };
}

/** The plaintext of `sealText`; throws when the key, the AAD or the ciphertext differ. */
export function openText(key: Buffer, aad: Buffer, sealed: SealedSecret): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'))
    .setAAD(aad)
    .setAuthTag(Buffer.from(sealed.tag, 'base64'));
  return Buffer.concat([
    decipher.update(Buffer.from(sealed.ciphertext, 'base64')),
    decipher.final(),
  ]).toString('utf8');
}

/**
 * Reads the 32-byte key (base64 or hex text) from `file`; with `create`, writes a fresh one
 * (mode 0600) when the file does not exist.
 */
export function loadVaultKey(file: string, options: { create: boolean }): Buffer {
  if (!existsSync(file)) {
    if (!options.create) {
      throw new AppError(
        'SECRETS_KEY_MISSING',
        `CLAWDIE_SECRETS_KEY_FILE=${file} does not exist: store a secret with \`clawdie secret set\` to create it`,
      );
    }
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  const text = readFileSync(file, 'utf8').trim();
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32)
    throw new AppError('SECRETS_KEY_INVALID', `${file}: must hold 32 bytes as base64 or hex`);
  return key;
}

import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import type { Config } from '../config.js';
import { ConfigError } from '../errors.js';
import { createTokenIssuer, createTokenVerifier, type TokenVerifier } from './api-tokens.js';
import { loadSigningKeys } from './signing-keys.js';

export interface ApiAuth {
  verifier: TokenVerifier;
  issue: ReturnType<typeof createTokenIssuer>;
  jwksFile: string;
}

/**
 * Loads API auth from the JWKS file. Null when the file does not exist and auth is not
 * required (the server then refuses non-loopback hosts, see `checkListenAddress`).
 */
export async function loadApiAuth(
  config: Config['auth'],
  now: () => number = Date.now,
): Promise<ApiAuth | null> {
  if (!existsSync(config.jwksFile)) {
    if (!config.required) return null;
    throw new ConfigError(
      `CLAWDIE_AUTH_REQUIRED is set but ${config.jwksFile} does not exist: run \`clawdie keys rotate\` or set CLAWDIE_AUTH_JWKS_FILE`,
    );
  }
  const keys = await loadSigningKeys(config.jwksFile);
  const settings = { issuer: config.issuer, audience: config.audience, now };
  return {
    verifier: createTokenVerifier(keys.publicJwks, settings),
    issue: createTokenIssuer(keys, settings),
    jwksFile: config.jwksFile,
  };
}

/** True for 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare.startsWith('::ffff:127.');
}

/**
 * Without auth the API is open to anyone who can connect, so it may only listen on loopback.
 * Throws ConfigError for a non-loopback host; returns a warning to print on loopback; null
 * when auth is on.
 */
export function checkListenAddress(host: string, authOn: boolean): string | null {
  if (authOn) return null;
  if (!isLoopbackHost(host)) {
    throw new ConfigError(
      `CLAWDIE_HOST=${host} is not a loopback address and API auth is not configured: run \`clawdie keys rotate\` (creates CLAWDIE_AUTH_JWKS_FILE) and use \`clawdie token create\`, or listen on 127.0.0.1`,
    );
  }
  return `WARNING: API auth is off (no JWKS file): every local process can use the API. Run \`clawdie keys rotate\` to turn it on.`;
}

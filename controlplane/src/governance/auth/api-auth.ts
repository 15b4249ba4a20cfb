import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import type { Config } from '../../config.js';
import { ConfigError } from '../../errors.js';
import { createAdminTokenVerifier } from './admin-token-verifier.js';
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

/** How the API checks callers at start-up: what `serve()` passes to the app and prints. */
export interface StartupAuth {
  verifier: TokenVerifier;
  /** `jwt`: tokens signed by the JWKS file; `admin-token`: only the admin token (no JWKS yet). */
  mode: 'jwt' | 'admin-token';
}

/**
 * API auth as `npm start` runs it. With a JWKS file: signed tokens. Without one and
 * `CLAWDIE_AUTH_REQUIRED` (the default): the admin token (configured or one-off) is the only
 * bearer accepted. Null only with an explicit `CLAWDIE_AUTH_REQUIRED=false` and no JWKS file
 * (auth off; the server then refuses non-loopback hosts).
 */
export async function startupApiAuth(
  config: Config['auth'],
  adminToken: string | null,
  now: () => number = Date.now,
): Promise<StartupAuth | null> {
  const jwt = await loadApiAuth({ ...config, required: false }, now);
  if (jwt) return { verifier: jwt.verifier, mode: 'jwt' };
  if (!config.required) return null;
  if (!adminToken) {
    throw new ConfigError(
      'API auth is required but there is neither a JWKS file nor an admin token: set CLAWDIE_ADMIN_TOKEN, run `clawdie keys rotate`, or set CLAWDIE_AUTH_REQUIRED=false',
    );
  }
  return { verifier: createAdminTokenVerifier(adminToken), mode: 'admin-token' };
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
  return `WARNING: API auth is off (CLAWDIE_AUTH_REQUIRED=false, no JWKS file): every local process, and every page a local browser opens, can use the API. Unset CLAWDIE_AUTH_REQUIRED to turn it back on.`;
}

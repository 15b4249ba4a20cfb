import { existsSync } from 'node:fs';
import type { Config } from '../config.js';
import {
  checkListenAddress,
  type StartupAuth,
  startupApiAuth,
} from '../governance/auth/api-auth.js';

export interface ServerAuth {
  /** Null only with CLAWDIE_AUTH_REQUIRED=false and no JWKS file (loopback only then). */
  auth: StartupAuth | null;
  /** The admin token the dashboard accepts: configured, or the one-off one below. */
  adminToken: string | null;
  /** Made at this start when neither CLAWDIE_ADMIN_TOKEN nor a JWKS file exists; printed once. */
  generatedAdminToken: string | null;
  /** The line the banner prints about auth when it is off on loopback; null when on. */
  warning: string | null;
}

/**
 * API auth as `npm start` runs it. Without a configured admin token (or a JWKS file), a one-off
 * token keeps the dashboard and the API usable on this host. Throws ConfigError for a
 * non-loopback host without auth.
 */
export async function startServerAuth(
  config: Readonly<Config>,
  newAdminToken: () => string,
): Promise<ServerAuth> {
  const generatedAdminToken =
    config.adminToken || existsSync(config.auth.jwksFile) ? null : newAdminToken();
  const adminToken = config.adminToken ?? generatedAdminToken;
  const auth = await startupApiAuth(config.auth, adminToken);
  const warning = checkListenAddress(config.host, auth !== null);
  return { auth, adminToken, generatedAdminToken, warning };
}

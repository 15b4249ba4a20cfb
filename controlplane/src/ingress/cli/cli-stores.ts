// The store bundle for the offline admin commands (`hosts`, `secret set`, `session list|revoke`,
// `audit verify`): the same SQLite file or PostgreSQL database the server uses, logging at the
// configured level.
import type { Config } from '../../config.js';
import { createLogger } from '../../logger.js';
import { openStores } from '../../platform/store/open-stores.js';
import type { Stores } from '../../platform/store/stores.js';

export function openCliStores(
  config: Readonly<Config>,
  options: { readOnly?: boolean } = {},
): Promise<Stores> {
  return openStores(config, { logger: createLogger(config.logLevel), ...options });
}

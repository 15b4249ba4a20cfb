import { randomBytes } from 'node:crypto';
import type { SessionBundle } from '@clawdie/kit/jail-api';
import { createSessionProfileService } from '../../../../controlplane/src/browser/sessions/session-profile-service.js';
import { createAuditLog } from '../../../../controlplane/src/governance/audit/audit-log.js';
import type { Principal } from '../../../../controlplane/src/governance/auth/scopes.js';
import { createAuditRepository } from '../../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { createSessionProfileRepository } from '../../../../controlplane/src/platform/store/session-profile-repository.js';
import { createFakeSessionTransfer } from '../../../support/fake-session-transfer.js';
import { createManualClock } from '../../../support/manual-clock.js';

export const origin = 'http://127.0.0.1:8123';
export const cookieValue = `sid-${randomBytes(8).toString('hex')}`;
export const note = `note-${randomBytes(8).toString('hex')}`;
export const idbValue = `idb-${randomBytes(8).toString('hex')}`;

export const bundle: SessionBundle = {
  cookies: [
    {
      name: 'sid',
      value: cookieValue,
      domain: '127.0.0.1',
      path: '/',
      httpOnly: true,
      secure: false,
    },
  ],
  origins: [
    {
      origin,
      localStorage: [{ key: 'clawdie-note', value: note }],
      indexedDB: {
        databases: [
          {
            name: 'app',
            version: 2,
            stores: [
              {
                name: 'kv',
                keyPath: null,
                autoIncrement: false,
                indexes: [],
                records: [
                  { key: 'token', value: idbValue },
                  { key: 'at', value: { $t: 'date', v: 1 } },
                ],
              },
            ],
          },
        ],
        skipped: [{ database: 'app', store: 'kv', reason: 'blob', count: 1 }],
      },
    },
  ],
};

export const principalOf = (
  tenant: string,
  scopes: Principal['scopes'] = ['operate'],
): Principal => ({
  tenant,
  subject: `${tenant}-op`,
  scopes,
  via: 'token',
});

/** The service on :memory: with a manual clock, one live task `t-acme` of tenant acme. */
export function sessionFixture() {
  const database = openDatabase(':memory:');
  const clock = createManualClock();
  const audit = createAuditLog(createAuditRepository(database.db), clock);
  const store = createSessionProfileRepository(database.db);
  const clone = createFakeSessionTransfer(bundle);
  const key = randomBytes(32);
  const service = createSessionProfileService({
    store,
    key: () => key,
    audit,
    clock,
    defaultTtlS: 3600,
    taskTenant: async (taskId) => ({ 't-acme': 'acme', 't-globex': 'globex' })[taskId] ?? null,
    transferOf: (taskId) => (taskId === 't-acme' ? clone : null),
  });
  return { database, clock, audit, store, clone, service, key };
}

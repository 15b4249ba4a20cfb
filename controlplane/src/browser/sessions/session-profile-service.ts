import {
  indexedDbTotals,
  type SessionBundle,
  type SessionImportResponse,
  sessionBundleSchema,
} from '@clawdie/kit/jail-api';
import type { z } from 'zod';
import type { Clock } from '../../clock.js';
import type { AuditLog } from '../../governance/audit/audit-log.js';
import { actorOf, hasScope, type Principal, visibleTenant } from '../../governance/auth/scopes.js';
import { openText, sealText } from '../../governance/credentials/secret-vault.js';
import type {
  SessionProfileMeta,
  SessionProfileStore,
} from '../../platform/store/session-profile-repository.js';
import type { SessionTransfer } from '../operator/jail-session-client.js';
import { SessionProfileError } from './session-errors.js';
import { profileNameSchema, sessionOriginsSchema } from './session-names.js';

export interface SaveSessionRequest {
  taskId: string;
  name: string;
  origins: readonly string[];
  /** Lifetime in seconds; default CLAWDIE_SESSION_TTL_S. */
  ttlS?: number | undefined;
}

export interface SessionProfileServiceDeps {
  store: SessionProfileStore;
  /** The vault key (CLAWDIE_SECRETS_KEY_FILE), created on first use. */
  key: () => Buffer;
  audit: AuditLog;
  clock: Clock;
  defaultTtlS: number;
  /** The tenant owning a task (null when unknown). */
  taskTenant: (taskId: string) => Promise<string | null>;
  /** The login-state client of the clone a task holds now, or null when it holds none. */
  transferOf: (taskId: string) => SessionTransfer | null;
}

/**
 * Named, tenant-scoped saved sessions. Save, revoke, expire and inject each append one audit row
 * (names, origins, counts; never a value). Listing never returns values.
 */
export interface SessionProfileService {
  /** Captures the live clone of `taskId` as profile `name` (operate on the task's tenant, or admin). */
  saveSessionFromTask(
    request: SaveSessionRequest,
    principal: Principal,
  ): Promise<SessionProfileMeta>;
  list(principal: Principal): Promise<SessionProfileMeta[]>;
  /** Revokes `name` of `tenant` (default: the principal's); the bundle is wiped. */
  revoke(name: string, principal: Principal, tenant?: string): Promise<SessionProfileMeta>;
  /** A profile's metadata for admission (null when there is none). */
  meta(tenant: string, name: string): Promise<SessionProfileMeta | null>;
  /** Decrypts `name`, imports it into `transfer`'s browser and audits the injection. */
  inject(
    target: { tenant: string; name: string; taskId: string; actor: string },
    transfer: SessionTransfer,
    signal?: AbortSignal,
  ): Promise<SessionImportResponse>;
  /** The service's clock (views derive active/expired from it). */
  now(): number;
  /** Wipes the bundles of expired profiles (one `session-expired` row each); returns how many. */
  sweep(): Promise<number>;
}

function valid<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues[0]?.message ?? 'invalid';
  throw new SessionProfileError('SESSION_INVALID', `${what}: ${message}`, 400);
}

/** IndexedDB counts of a saved bundle for its audit row: never a name or value, skips by reason. */
function indexedDbAudit(bundle: SessionBundle) {
  const parts = bundle.origins.map((entry) => entry.indexedDB);
  const { databases, records } = indexedDbTotals(parts);
  const skipped: Record<string, number> = {};
  for (const skip of parts.flatMap((part) => part?.skipped ?? []))
    skipped[skip.reason] = (skipped[skip.reason] ?? 0) + skip.count;
  return { idb_database_count: databases, idb_record_count: records, idb_skipped: skipped };
}

const aad = (tenant: string, name: string) =>
  Buffer.from(`session-profile\u0000${tenant}\u0000${name}`);

export function createSessionProfileService(
  deps: SessionProfileServiceDeps,
): SessionProfileService {
  const { store, audit, clock } = deps;

  function requireOperate(principal: Principal, tenant: string): void {
    if (!hasScope(principal, 'operate'))
      throw new SessionProfileError('SESSION_FORBIDDEN', 'needs the operate or admin scope', 403);
    const visible = visibleTenant(principal);
    if (visible !== undefined && visible !== tenant)
      throw new SessionProfileError('SESSION_NOT_FOUND', 'no such task or session profile', 404);
  }

  async function live(tenant: string, name: string): Promise<SessionProfileMeta> {
    const meta = await store.meta(tenant, name);
    if (!meta)
      throw new SessionProfileError('SESSION_NOT_FOUND', `no session profile ${name}`, 404);
    if (meta.revokedAt !== null || meta.expiresAt <= clock.now())
      throw new SessionProfileError(
        'SESSION_UNAVAILABLE',
        `session profile ${name} is revoked or expired`,
        409,
      );
    return meta;
  }

  return {
    async saveSessionFromTask(request, principal) {
      const name = valid(profileNameSchema, request.name, 'name');
      const origins = valid(sessionOriginsSchema, request.origins, 'origins');
      const tenant = await deps.taskTenant(request.taskId);
      if (tenant === null) throw new SessionProfileError('SESSION_NOT_FOUND', 'no such task', 404);
      requireOperate(principal, tenant);
      const transfer = deps.transferOf(request.taskId);
      if (!transfer)
        throw new SessionProfileError(
          'SESSION_NO_BROWSER',
          `task ${request.taskId} holds no browser now`,
          409,
        );
      const bundle = await transfer.exportSession(origins);
      const now = clock.now();
      const meta: SessionProfileMeta = {
        tenant,
        name,
        origins,
        cookieCount: bundle.cookies.length,
        sourceTask: request.taskId,
        createdBy: actorOf(principal),
        createdAt: now,
        expiresAt: now + (request.ttlS ?? deps.defaultTtlS) * 1000,
        revokedAt: null,
      };
      await store.put(meta, sealText(deps.key(), aad(tenant, name), JSON.stringify(bundle)));
      await audit.append({
        type: 'session-saved',
        actor: meta.createdBy,
        taskId: request.taskId,
        data: {
          tenant,
          session: name,
          origins,
          cookie_count: meta.cookieCount,
          ...indexedDbAudit(bundle),
          expires_at: meta.expiresAt,
        },
      });
      return meta;
    },

    async list(principal) {
      if (!hasScope(principal, 'operate'))
        throw new SessionProfileError('SESSION_FORBIDDEN', 'needs the operate or admin scope', 403);
      return store.list(visibleTenant(principal));
    },

    async revoke(name, principal, tenant = principal.tenant) {
      requireOperate(principal, tenant);
      if (!(await store.revoke(tenant, name, clock.now())))
        throw new SessionProfileError('SESSION_NOT_FOUND', `no live session profile ${name}`, 404);
      await audit.append({
        type: 'session-revoked',
        actor: actorOf(principal),
        data: { tenant, session: name },
      });
      return (await store.meta(tenant, name)) as SessionProfileMeta;
    },

    meta: (tenant, name) => store.meta(tenant, name),
    now: () => clock.now(),

    async inject(target, transfer, signal) {
      const meta = await live(target.tenant, target.name);
      const sealed = await store.sealed(target.tenant, target.name);
      if (!sealed)
        throw new SessionProfileError(
          'SESSION_UNAVAILABLE',
          `session profile ${target.name} holds no data`,
          409,
        );
      let bundle: SessionBundle;
      try {
        bundle = sessionBundleSchema.parse(
          JSON.parse(openText(deps.key(), aad(target.tenant, target.name), sealed)),
        );
      } catch (error) {
        throw new SessionProfileError(
          'SESSION_UNAVAILABLE',
          `session profile ${target.name} cannot be decrypted`,
          409,
          error,
        );
      }
      const counts = await transfer.importSession(bundle, signal);
      await audit.append({
        type: 'session-injected',
        actor: target.actor,
        taskId: target.taskId,
        data: {
          tenant: target.tenant,
          session: target.name,
          origins: meta.origins,
          cookie_count: counts.cookies,
          idb_database_count: counts.indexedDb.databases,
          idb_record_count: counts.indexedDb.records,
        },
      });
      return counts;
    },

    async sweep() {
      const expired = await store.expiredBefore(clock.now());
      for (const meta of expired) {
        await store.wipe(meta.tenant, meta.name);
        await audit.append({
          type: 'session-expired',
          actor: 'system',
          data: { tenant: meta.tenant, session: meta.name, expires_at: meta.expiresAt },
        });
      }
      return expired.length;
    },
  };
}

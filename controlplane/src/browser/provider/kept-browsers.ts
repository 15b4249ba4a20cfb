// Browsers kept after their task ended (`keep_session`), so a follow-up task of the same tenant
// continues in the same page, cookies and all. A kept browser keeps the task slot it ran in (so
// kept browsers never push the host past the concurrency limit) and is destroyed when nobody has
// used it for its idle TTL, or when the controlplane closes. Every keep, take-over and ending is
// audited to the task concerned.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { appendOrLog } from '../../governance/audit/append-or-log.js';
import type { AuditEvent, AuditLog } from '../../governance/audit/audit-log.js';
import type { BrowserLease } from './browser-provider.js';

/** One kept browser, handed to the follow-up task that continues in it. */
export interface KeptBrowser {
  readonly sessionId: string;
  readonly tenant: string;
  /** The hosts its clone's network layer lets through (fixed when the clone was made). */
  readonly domains: readonly string[];
  readonly lease: BrowserLease;
  /** Gives back the task slot the browser held; call once the follow-up is done with it. */
  readonly releaseSlot: () => void;
}

export interface KeepRequest {
  tenant: string;
  taskId: string;
  domains: readonly string[];
  idleTtlMs: number;
  maxSessions: number;
}

export interface KeptBrowsers {
  /**
   * Keeps `lease` (and the slot `releaseSlot` frees) after task `taskId` ended. Returns the new
   * session id, or why it was not kept (the caller then releases both itself).
   */
  keep(
    lease: BrowserLease,
    releaseSlot: () => void,
    request: KeepRequest,
  ): { sessionId: string } | { refused: string };
  /** The kept browser `sessionId` of `tenant`, without taking it; undefined when there is none. */
  peek(sessionId: string, tenant: string): Omit<KeptBrowser, 'lease' | 'releaseSlot'> | undefined;
  /** Takes the kept browser for task `taskId` (its idle timer stops); undefined when gone. */
  take(sessionId: string, tenant: string, taskId: string): KeptBrowser | undefined;
  /** How many browsers are kept now (all tenants). */
  readonly size: number;
  /** Destroys every kept browser. */
  close(): Promise<void>;
}

/** Random characters at the head of every session id (18 bytes, base64url). */
const RANDOM_CHARS = 24;
const embeddableTaskId = /^[A-Za-z0-9_-]{1,40}$/;

/**
 * A session id: `ks_`, random characters, then the id of the task that kept the browser (when it
 * fits the id's pattern), so any replica can find the task row and so the replica that holds it.
 */
export function newKeptSessionId(taskId: string): string {
  const random = randomBytes(18).toString('base64url');
  return `ks_${random}${embeddableTaskId.test(taskId) ? taskId : ''}`;
}

/** The id of the task that kept session `sessionId` (see newKeptSessionId), null when not embedded. */
export function keptSessionTaskId(sessionId: string): string | null {
  const taskId = sessionId.slice(3 + RANDOM_CHARS);
  return sessionId.startsWith('ks_') && embeddableTaskId.test(taskId) ? taskId : null;
}

interface Entry extends KeptBrowser {
  lastTaskId: string;
  timer: NodeJS.Timeout;
}

export function createKeptBrowsers(deps: {
  audit: AuditLog;
  logger: Logger;
  /** Task slots in all; a browser is kept only while at least one other slot stays free. */
  concurrency: number;
}): KeptBrowsers {
  const kept = new Map<string, Entry>();
  /** Appends a system row; never rejects (a failure is logged). `keep` and `take` do not wait. */
  const record = (event: Omit<AuditEvent, 'actor'>) =>
    appendOrLog(deps.audit, { actor: 'system', ...event }, deps.logger);

  async function end(entry: Entry, reason: 'idle' | 'shutdown'): Promise<void> {
    clearTimeout(entry.timer);
    kept.delete(entry.sessionId);
    await record({
      type: 'kept-browser-ended',
      taskId: entry.lastTaskId,
      data: { session_id: entry.sessionId, clone: entry.lease.id, reason },
    });
    entry.releaseSlot();
    await entry.lease.release();
  }

  return {
    keep(lease, releaseSlot, request) {
      const own = [...kept.values()].filter((entry) => entry.tenant === request.tenant).length;
      const refused =
        own >= request.maxSessions
          ? `tenant ${request.tenant} already keeps ${own} browser(s), the policy's limit`
          : kept.size + 1 >= deps.concurrency
            ? `keeping it would leave no browser slot for other tasks (concurrency ${deps.concurrency})`
            : null;
      if (refused) {
        void record({
          type: 'browser-not-kept',
          taskId: request.taskId,
          data: { reason: refused },
        });
        return { refused };
      }
      const sessionId = newKeptSessionId(request.taskId);
      const entry: Entry = {
        sessionId,
        tenant: request.tenant,
        domains: [...request.domains],
        lease,
        releaseSlot,
        lastTaskId: request.taskId,
        timer: setTimeout(() => void end(entry, 'idle'), request.idleTtlMs),
      };
      entry.timer.unref();
      kept.set(sessionId, entry);
      lease.rebind?.(null);
      void record({
        type: 'browser-kept',
        taskId: request.taskId,
        data: { session_id: sessionId, clone: lease.id, idle_ttl_s: request.idleTtlMs / 1000 },
      });
      return { sessionId };
    },
    peek(sessionId, tenant) {
      const entry = kept.get(sessionId);
      if (!entry || entry.tenant !== tenant) return undefined;
      return { sessionId, tenant, domains: entry.domains };
    },
    take(sessionId, tenant, taskId) {
      const entry = kept.get(sessionId);
      if (!entry || entry.tenant !== tenant) return undefined;
      clearTimeout(entry.timer);
      kept.delete(sessionId);
      entry.lease.rebind?.(taskId);
      void record({
        type: 'browser-resumed',
        taskId,
        data: { session_id: sessionId, clone: entry.lease.id, after_task: entry.lastTaskId },
      });
      return entry;
    },
    get size() {
      return kept.size;
    },
    async close() {
      await Promise.all([...kept.values()].map((entry) => end(entry, 'shutdown')));
    },
  };
}

// The local browser's egress when there is no hostd: the controlplane runs hostd's own egress proxy
// (@clawdie/hostd/egress, the code every clone's browser goes through) on 127.0.0.1 in front of
// its one local Chromium. The allowlist is that of the task holding the browser, nothing between
// tasks; every refusal is audited to that task in the same row as hostd mode's. What this cannot
// hold without root (the browser process itself is not firewalled) is in docs/security.md.
import {
  type AddressPolicy,
  createAddressPolicy,
  type HostResolver,
  parseAddressPort,
  type RefusedAttempt,
  startEgressProxy,
} from '@clawdie/hostd/egress';
import type { Logger } from 'pino';
import { appendOrLog } from '../../governance/audit/append-or-log.js';
import type { AuditLog } from '../../governance/audit/audit-log.js';
import type { BrowserProvider } from './browser-provider.js';
import { egressRefusedEvent } from './egress-refusal-audit.js';

/** The name the local browser goes by in leases and in `egress-refused` rows (`clone`). */
export const LOCAL_BROWSER_ID = 'local';

export interface LocalEgress {
  /** `http://127.0.0.1:<port>`: the local jail-service's CLAWDIE_JAIL_PROXY. */
  readonly url: string;
  /** Task `taskId` takes the browser: from now on its domains are the allowlist. */
  hold(taskId: string, domains: readonly string[]): void;
  /** A kept browser's follow-up task takes over the current allowlist (its refusals are its). */
  rebind(taskId: string): void;
  /** The browser is free: nothing passes until the next task takes it. */
  free(): void;
  /** Stops the proxy, cutting every open connection. Idempotent. */
  close(): Promise<void>;
}

export interface LocalEgressOptions {
  audit: AuditLog;
  logger: Logger;
  /**
   * CLAWDIE_EGRESS_ALLOW_INTERNAL: host-internal `address:port` pairs any task may reach when its
   * domains name them (as hostd's CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL).
   */
  allowInternal: readonly string[];
  /** DNS (default: the system resolver, as hostd). */
  resolver?: HostResolver;
}

/**
 * The internal `address:port` pairs a task may reach: the admin's, plus each entry of its domains
 * that names an exact IP literal and port (`127.0.0.1:8700`, `[::1]:8700`) — a local test site or
 * the demo shop. A name (`localhost:8700`, `evil.test:8700`) is never one: what it resolves to
 * could be anything, so an internal answer for it stays refused.
 */
export function taskExceptions(
  domains: readonly string[],
  allowInternal: readonly string[],
): string[] {
  const literal = domains.filter((entry) => parseAddressPort(entry) !== null);
  return [...new Set([...allowInternal, ...literal])];
}

/** Starts the proxy with an empty allowlist (deny all) until a task takes the browser. */
export async function startLocalEgress(options: LocalEgressOptions): Promise<LocalEgress> {
  const log = options.logger.child({ module: 'local-egress' });
  let policy = createAddressPolicy({ internalExceptions: options.allowInternal });
  const addressPolicy: AddressPolicy = {
    check: (address, port) => policy.check(address, port),
    get exceptions() {
      return policy.exceptions;
    },
  };
  // The task the browser works for now; between tasks, the last one (its page is still open).
  let holder: string | null = null;
  let generation = 0;
  const onRefused = (attempt: RefusedAttempt) => {
    const event = egressRefusedEvent(LOCAL_BROWSER_ID, holder, {
      ...attempt,
      generation,
      at: new Date().toISOString(),
    });
    // A proxy callback: the row is appended in the background (a failure is logged).
    void appendOrLog(options.audit, { actor: 'system', ...event }, log);
  };
  const proxy = await startEgressProxy({
    host: '127.0.0.1',
    port: 0,
    allowedDomains: [],
    addressPolicy,
    ...(options.resolver ? { resolver: options.resolver } : {}),
    onRefused,
  });
  const allow = (domains: readonly string[], exceptions: readonly string[]) => {
    policy = createAddressPolicy({ internalExceptions: exceptions });
    proxy.setAllowedDomains(domains);
  };
  log.info({ url: proxy.url }, 'local browser egress proxy ready');
  return {
    url: proxy.url,
    hold(taskId, domains) {
      holder = taskId;
      generation += 1;
      allow(domains, taskExceptions(domains, options.allowInternal));
      log.debug({ taskId, domains, exceptions: policy.exceptions }, 'egress allowlist set');
    },
    rebind(taskId) {
      holder = taskId;
    },
    free() {
      allow([], options.allowInternal);
    },
    close: () => proxy.close(),
  };
}

/**
 * The single local browser's provider with the egress proxy switched per lease: acquire gives the
 * proxy the task's domains, release (once) empties it. Tasks queue for the one browser before
 * acquiring (concurrency 1), so one task's allowlist is in force at a time.
 */
export function withLocalEgress(provider: BrowserProvider, egress: LocalEgress): BrowserProvider {
  return {
    concurrency: provider.concurrency,
    async acquire(request) {
      const lease = await provider.acquire(request);
      egress.hold(request.taskId, request.allowedDomains);
      let released: Promise<void> | null = null;
      return {
        ...lease,
        release() {
          released ??= (async () => {
            egress.free();
            await lease.release();
          })();
          return released;
        },
        rebind(taskId) {
          if (taskId !== null) egress.rebind(taskId);
          lease.rebind?.(taskId);
        },
      };
    },
  };
}

import { OperatorError } from '../../errors.js';
import type { BrowserOperator } from '../operator/browser-operator.js';

/** Where a browser's jail-service answers (for its screencast and page probes). */
export interface JailEndpoint {
  url: string;
  token: string;
  /**
   * `fetch` over the lease's own connections (lease-connections.ts), closed on release; every
   * client of this endpoint uses it. Absent: the process's shared pool (a fixed local service).
   */
  fetch?: typeof fetch;
}

/** One task's browser: use `operator` while the task runs, then `release()` exactly once. */
export interface BrowserLease {
  readonly operator: BrowserOperator;
  /** Clone name or other identity of the browser, for the trace. */
  readonly id: string;
  /** The browser's jail-service; null when there is none (a fake, or no browser at all). */
  readonly service: JailEndpoint | null;
  /** The clone's X display (`:N`) when it has one, for whole-desktop tasks. */
  readonly display?: string | null;
  /**
   * Gives the browser back (destroys a hostd clone). Never throws; safe to call twice (a hostd
   * lease whose hostd did not answer tries again; the fleet calls it when the host is back).
   */
  release(): Promise<void>;
  /**
   * Hands the browser to another task (a kept browser's follow-up), or to none while it waits
   * kept: what the browser does from now on (egress refusals, the lease index) is that task's.
   */
  rebind?(taskId: string | null): void;
}

export interface BrowserRequest {
  taskId: string;
  /** Hosts the task may reach (empty: no network-layer restriction beyond the provider's). */
  allowedDomains: readonly string[];
  /** Ask for a clone with its own X display (headful Chromium, desktop tasks). */
  display?: boolean;
  /**
   * Labels the jail host must carry (`host_labels`: os, region…). Only a fleet places by labels;
   * every other provider refuses a request that names any (`refuseHostLabels`).
   */
  labels?: Readonly<Record<string, string>>;
  /**
   * The most leased clones the host may hold, this one included, whoever holds them: a fleet sends
   * the host's registered capacity and hostd refuses past it (OperatorError HOST_FULL).
   */
  maxLeases?: number;
  signal?: AbortSignal;
}

/**
 * Throws OPERATOR_UNAVAILABLE for a request with host labels: a provider with one place for its
 * browsers cannot promise a task the OS or region it asked for.
 */
export function refuseHostLabels(request: BrowserRequest): void {
  const labels = Object.entries(request.labels ?? {});
  if (labels.length === 0) return;
  const named = labels.map(([key, value]) => `${key}=${value}`).join(', ');
  throw new OperatorError(
    'OPERATOR_UNAVAILABLE',
    `the task asks for a jail host labelled ${named}, but host labels need a fleet of jail hosts (CLAWDIE_FLEET=on): this controlplane's browsers come from one place`,
  );
}

/**
 * Where tasks get their browsers. The local provider hands out the one local jail-service, one task
 * at a time; the hostd provider asks hostd for a fresh clone per task. Rejects with an AppError
 * when no browser can be had (the task then ends OPERATOR_UNAVAILABLE with its trace kept).
 */
export interface BrowserProvider {
  /** How many tasks may hold a lease at once. */
  readonly concurrency: number;
  acquire(request: BrowserRequest): Promise<BrowserLease>;
}

/**
 * The single browser a controlplane drives when there is no hostd: one task at a time. With
 * `reset` (browser-source.ts passes `resetJailBrowser` for the jail-service), each lease starts
 * from a clean browser, so a task never inherits the last one's tabs or login; a reset that fails
 * fails the lease (the task ends OPERATOR_UNAVAILABLE).
 */
export function createSingleBrowserProvider(
  operator: BrowserOperator,
  service: JailEndpoint | null = null,
  id = 'local',
  reset?: () => Promise<void>,
): BrowserProvider {
  return {
    concurrency: 1,
    async acquire(request) {
      refuseHostLabels(request);
      await reset?.();
      return { operator, id, service, release: async () => undefined };
    },
  };
}

/** Bound on one reset: closing tabs, clearing storage and loading about:blank. */
const RESET_TIMEOUT_MS = 30_000;

/**
 * `POST /reset` on the jail-service: popups and extra tabs closed, cookies and the storage of
 * every origin it showed cleared, masks dropped, the first tab on about:blank. Throws
 * OperatorError (OPERATOR_UNAVAILABLE) when it fails.
 */
export async function resetJailBrowser(
  service: JailEndpoint,
  fetchImpl: typeof fetch = service.fetch ?? fetch,
): Promise<void> {
  const response = await fetchImpl(`${service.url}/reset`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.token}` },
    signal: AbortSignal.timeout(RESET_TIMEOUT_MS),
  });
  const body = await response.text().catch(() => '');
  if (!response.ok)
    throw new OperatorError(
      'OPERATOR_UNAVAILABLE',
      `the browser could not be reset for the task (jail-service answered ${response.status}: ${body.slice(0, 300)})`,
    );
}

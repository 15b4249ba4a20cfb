// What a CloneManager is built with (hostd's main, verify-host and tests build one each).
import type { CloneLimits, CloneService, JailDriver } from '../drivers/jail-driver.js';
import type { AddressPolicy } from '../proxy/address-policy.js';
import type { HostResolver } from '../proxy/host-resolver.js';
import type { RefillGateOptions } from './refill-gate.js';

export interface CloneManagerOptions {
  driver: JailDriver;
  defaultLimits: CloneLimits;
  defaultDisplay: boolean;
  /** Port of each clone's proxy on its host address (0 = any, used without a clone link). */
  proxyPort: number;
  /** Ready clones always kept in the warm pool (0 = none unless demand raises it). */
  poolSize: number;
  /** Ready clones kept at most while tasks arrive (pool-demand.ts); default `poolSize`. */
  poolMax?: number;
  /** How far back arrivals raise the pool's target; default 60 s. */
  poolWindowMs?: number;
  /**
   * How a refill waits for the clone just handed out to go quiet (refill-gate.ts): at most
   * `maxWaitMs` (default 3000; 0 refills at once), sampling its CPU every `sampleMs` (100).
   */
  refill?: Pick<RefillGateOptions, 'maxWaitMs' | 'sampleMs'>;
  startTimeoutMs: number;
  /** Warm-pool retry backoff after a failure: first delay, doubling up to the maximum. */
  poolRetry?: { minMs: number; maxMs: number };
  /** How long an ended lease and its refusals are kept (its clone name is not reused meanwhile). */
  leaseRetentionMs?: number;
  /** Clone indexes to use; default the driver's whole space (1…999). */
  indexRange?: { min: number; max: number };
  now?: () => number;
  /**
   * Run on each warm clone once it is healthy, before it enters the pool — e.g.
   * `primeFirstScreenshot`, so the task's first screenshot is not the browser's first frame.
   * A rejection discards the clone.
   */
  primeWarmClone?: (service: CloneService, signal: AbortSignal) => Promise<void>;
  /** Must not throw. */
  onError?: (message: string, error: unknown) => void;
  /**
   * Addresses no clone reaches whatever its allowlist (default: every internal address, no
   * exception; hostd's main passes CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL's exact host:port entries).
   */
  addressPolicy?: AddressPolicy;
  /** The proxies' DNS (default: the system resolver). */
  resolver?: HostResolver;
}

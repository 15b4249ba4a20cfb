// What the clone benches share: building the jail-service they run (compiled and bundled, as in
// production), and a CloneManager on the real Linux driver whose clones may reach one host
// address (the demo site).
import { execFileSync } from 'node:child_process';
import { CloneManager } from '../hostd/src/clones/clone-manager.js';
import { primeFirstScreenshot } from '../hostd/src/clones/prime-screenshot.js';
import type { LinuxDriver } from '../hostd/src/drivers/linux/linux-driver.js';
import { createAddressPolicy } from '../hostd/src/proxy/address-policy.js';

export const BENCH_LIMITS = { memoryMb: 2048, pids: 1024, cpuPercent: 200 };

/** Clones run the jail-service's compiled JS, as in production (it imports the compiled kit). */
export function buildJailService(skip: boolean): void {
  if (skip) return;
  for (const workspace of ['@clawdie/kit', '@clawdie/jail-service']) {
    execFileSync('npm', ['run', 'build', '--silent', '--workspace', workspace], {
      stdio: 'inherit',
    });
  }
}

export function benchManager(options: {
  driver: LinuxDriver;
  poolSize: number;
  /** host:port of the one host address the clones may reach. */
  siteHost: string;
  indexRange?: { min: number; max: number };
}): CloneManager {
  return new CloneManager({
    driver: options.driver,
    defaultLimits: BENCH_LIMITS,
    defaultDisplay: false,
    proxyPort: 3128,
    poolSize: options.poolSize,
    startTimeoutMs: 60_000,
    primeWarmClone: primeFirstScreenshot,
    addressPolicy: createAddressPolicy({ internalExceptions: [options.siteHost] }),
    ...(options.indexRange ? { indexRange: options.indexRange } : {}),
  });
}

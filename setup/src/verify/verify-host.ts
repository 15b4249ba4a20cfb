// The acceptance check of one host (`clawdie setup --verify-host`): through hostd's own driver and
// clone manager, make one clone, reach its jail-service, prove its egress is refused outside the
// allowlist, destroy it and prove nothing is left. Returns the results; never throws.
import type { CloneIsolation, CloneManager, JailDriver } from '@clawdie/hostd/host-kit';
import { CheckList, fail } from './check-list.js';
import { ALLOWED_DOMAIN, egressChecks, type LeasedClone, serviceChecks } from './clone-checks.js';
import { startCanary } from './egress-probe.js';
import type { HostFacts } from './host-facts.js';
import { insideChecks } from './inside-checks.js';

export interface VerifyHostDeps {
  driver: JailDriver;
  /** hostd's CloneManager over `driver`, with no warm pool. */
  manager: CloneManager;
  facts: HostFacts;
  /** Lines printed under the facts (config notices, what a fake host cannot show). */
  notes?: readonly string[];
  /** Per HTTP request to the clone. */
  timeoutMs?: number;
}

export interface VerifyReport {
  facts: HostFacts;
  driver: string;
  isolation: CloneIsolation | null;
  notes: readonly string[];
  checks: CheckList['results'];
  ok: boolean;
}

export const VERIFY_TASK_ID = 'verify-host';

export async function verifyHost(deps: VerifyHostDeps): Promise<VerifyReport> {
  const { driver, manager } = deps;
  const timeoutMs = deps.timeoutMs ?? 30_000;
  const checks = new CheckList();
  const notes = [...(deps.notes ?? [])];
  let isolation: CloneIsolation | null = null;
  await checks.run('isolation is full', async () => {
    isolation = await driver.probe();
    if (isolation.level !== 'full') fail(`reduced: ${isolation.reasons.join('; ')}`);
    return 'full';
  });
  const preflight = driver.preflight?.bind(driver);
  if (preflight) {
    // The same check hostd's main runs before it serves: the template snapshot and the tasks
    // dataset its configuration names (CLAWDIE_HOSTD_*) exist.
    await checks.run("host prepared as hostd's configuration names it", async () => {
      const missing = await preflight();
      if (missing.length > 0) fail(missing.join('; '));
      return 'template snapshot and tasks dataset present';
    });
  }
  const clean = await checks.run('no clone on the host before', async () => {
    const names = (await driver.list()).map((clone) => clone.name);
    if (names.length > 0) {
      fail(`found ${names.join(', ')}: stop hostd (it destroys its clones) and run again`);
    }
    return 'none';
  });
  if (clean) {
    let clone: LeasedClone | null = null;
    let peer: string | null = null;
    const canary = await startCanary();
    // The loopback listener is named in the allowlist: the address policy must refuse it anyway.
    const allowedDomains = [ALLOWED_DOMAIN, `127.0.0.1:${canary.port}`];
    try {
      await checks.run('create and start one clone', async () => {
        clone = await manager.create({ taskId: VERIFY_TASK_ID, allowedDomains });
        return `${clone.name} ready in ${clone.readyMs} ms, ${clone.isolation.level} isolation`;
      });
      if (clone !== null) {
        const held: LeasedClone = clone;
        try {
          await serviceChecks(checks, held, timeoutMs);
          await egressChecks(checks, held, manager, canary, allowedDomains, timeoutMs);
          peer = await insideChecks(
            checks,
            { driver, manager, startCanary },
            held,
            allowedDomains,
            notes,
          );
        } finally {
          await checks.run('destroy the clone', async () => {
            const { leftovers } = await manager.destroy(held.name, held.leaseId);
            if (leftovers.length > 0) fail(`leftovers: ${leftovers.join(', ')}`);
            return `${held.name} destroyed, driver reports no leftovers`;
          });
        }
      }
    } finally {
      await canary.close();
    }
    const name = (clone as LeasedClone | null)?.name ?? null;
    const names = [name, peer].filter((n): n is string => n !== null);
    await checks.run('nothing left on the host', async () => nothingLeft(driver, names));
  }
  await manager.close().catch(() => undefined);
  return {
    facts: deps.facts,
    driver: driver.kind,
    isolation,
    notes,
    checks: checks.results,
    ok: checks.ok,
  };
}

/**
 * Observed from the OS by the driver: no clone listed, ours not found by name. No reconcile: the
 * check never destroys a clone that is not its own (hostd may have been started meanwhile), and
 * every driver's reconcile acts on what `list` observes.
 */
async function nothingLeft(driver: JailDriver, names: readonly string[]): Promise<string> {
  const listed = await driver.list();
  if (listed.length > 0) {
    const resources = listed.flatMap((clone) => clone.resources.map((r) => `${clone.name} ${r}`));
    fail(`still on the host: ${resources.join(', ') || listed.map((c) => c.name).join(', ')}`);
  }
  for (const name of names) {
    const found = await driver.inspect(name);
    if (found) fail(`${name} still observed: ${found.resources.join(', ')}`);
  }
  return names.length === 0 ? 'list empty' : `list empty; ${names.join(', ')} not found`;
}

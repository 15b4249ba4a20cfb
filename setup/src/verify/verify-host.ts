// The acceptance check of one host (`clawdie setup --verify-host`): through hostd's own driver and
// clone manager, make one clone, reach its jail-service, prove its egress is refused outside the
// allowlist, destroy it and prove nothing is left. Returns the results; never throws.
import type { CloneIsolation, CloneManager, JailDriver } from '@clawdie/hostd/host-kit';
import { CheckList, fail } from './check-list.js';
import { ALLOWED_DOMAIN, egressChecks, type LeasedClone, serviceChecks } from './clone-checks.js';
import { startCanary } from './egress-probe.js';
import type { HostFacts } from './host-facts.js';

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
  let isolation: CloneIsolation | null = null;
  await checks.run('isolation is full', async () => {
    isolation = await driver.probe();
    if (isolation.level !== 'full') fail(`reduced: ${isolation.reasons.join('; ')}`);
    return 'full';
  });
  const clean = await checks.run('no clone on the host before', async () => {
    const names = (await driver.list()).map((clone) => clone.name);
    if (names.length > 0) {
      fail(`found ${names.join(', ')}: stop hostd (it destroys its clones) and run again`);
    }
    return 'none';
  });
  if (clean) {
    let clone: LeasedClone | null = null;
    await checks.run('create and start one clone', async () => {
      clone = await manager.create({ taskId: VERIFY_TASK_ID, allowedDomains: [ALLOWED_DOMAIN] });
      return `${clone.name} ready in ${clone.readyMs} ms, ${clone.isolation.level} isolation`;
    });
    if (clone !== null) {
      const held: LeasedClone = clone;
      const canary = await startCanary();
      try {
        await serviceChecks(checks, held, timeoutMs);
        await egressChecks(checks, held, manager, canary);
      } finally {
        await canary.close();
        await checks.run('destroy the clone', async () => {
          const { leftovers } = await manager.destroy(held.name, held.leaseId);
          if (leftovers.length > 0) fail(`leftovers: ${leftovers.join(', ')}`);
          return `${held.name} destroyed, driver reports no leftovers`;
        });
      }
    }
    await checks.run('nothing left on the host', async () => nothingLeft(driver));
  }
  await manager.close().catch(() => undefined);
  return {
    facts: deps.facts,
    driver: driver.kind,
    isolation,
    notes: deps.notes ?? [],
    checks: checks.results,
    ok: checks.ok,
  };
}

/** Observed from the OS by the driver: no clone listed, and a reconcile finds nothing to remove. */
async function nothingLeft(driver: JailDriver): Promise<string> {
  const listed = await driver.list();
  if (listed.length > 0) {
    const resources = listed.flatMap((clone) => clone.resources.map((r) => `${clone.name} ${r}`));
    fail(`still on the host: ${resources.join(', ') || listed.map((c) => c.name).join(', ')}`);
  }
  const reconciled = await driver.reconcile(() => false);
  const leftovers = Object.entries(reconciled.leftovers).flatMap(([name, left]) =>
    left.map((resource) => `${name} ${resource}`),
  );
  if (reconciled.destroyed.length > 0 || leftovers.length > 0) {
    fail(`reconcile found ${reconciled.destroyed.join(', ')} ${leftovers.join(', ')}`.trim());
  }
  return 'list empty; reconcile destroyed nothing';
}

// The firewall seen from inside a clone: a second (peer) clone is made, then from inside the first
// (FreeBSD: jexec into the jail; Linux: its network namespace) direct connections to the host, to
// the peer's jail-service and to a public address must all fail, and only the clone's egress
// proxy answers. A failing check names what was reachable.
import type { CloneManager, InsideConnect, JailDriver } from '@clawdie/hostd/host-kit';
import { type CheckList, fail } from './check-list.js';
import type { LeasedClone } from './clone-checks.js';
import type { Canary } from './egress-probe.js';

/** A public address outside every allowlist (Cloudflare's resolver, HTTPS). */
export const PUBLIC_TARGET = { host: '1.1.1.1', port: 443 };
export const PEER_TASK_ID = 'verify-host-peer';
/** A CONNECT the proxy must refuse (the host is outside the allowlist; `.invalid` never resolves). */
const PROXY_PROBE =
  'CONNECT inside-probe.invalid:443 HTTP/1.1\r\nHost: inside-probe.invalid:443\r\n\r\n';
const CONNECT_TIMEOUT_MS = 3000;

export interface InsideDeps {
  driver: JailDriver;
  manager: CloneManager;
  /** Starts a listener on `host` (port 0) that no clone may reach. */
  startCanary: (host: string) => Promise<Canary>;
}

/**
 * Runs the checks; returns the peer clone's name when one was made (the caller proves it gone).
 * A driver that cannot run a probe inside its clones gets a note instead (never a silent pass).
 */
export async function insideChecks(
  checks: CheckList,
  deps: InsideDeps,
  clone: LeasedClone,
  allowedDomains: readonly string[],
  notes: string[],
): Promise<string | null> {
  const connect = deps.driver.connectFromInside?.bind(deps.driver);
  if (!connect || !clone.egressProxyUrl) {
    notes.push(
      `firewall from inside a clone: not checked (the ${deps.driver.kind} driver cannot probe inside a clone)`,
    );
    return null;
  }
  const proxy = new URL(clone.egressProxyUrl);
  // The clone's host end (where hostd listens for it); the proxy's address when not reported.
  const hostAddress =
    (await deps.driver.inspect(clone.name))?.network?.hostAddress ?? proxy.hostname;
  const from = (target: { host: string; port: number; send?: string }) =>
    connect(clone.name, { ...target, timeoutMs: CONNECT_TIMEOUT_MS });
  const mustFail = async (what: string, host: string, port: number, hits?: () => number) => {
    const result = await from({ host, port });
    if (!result.ran) fail(`the probe did not run: ${result.outcome} (${shown(result)})`);
    if (result.connected || (hits?.() ?? 0) > 0) {
      fail(`reachable from inside ${clone.name}: ${host}:${port} (${what}) — ${result.outcome}`);
    }
    return `${host}:${port} (${what}): ${result.outcome}`;
  };
  let peer: LeasedClone | null = null;
  let canary: Canary | null = null;
  let noCanary = '';
  try {
    canary = await deps.startCanary(hostAddress);
  } catch (error) {
    noCanary = error instanceof Error ? error.message : String(error);
  }
  try {
    await checks.run('from inside the clone: a direct connection to the host fails', async () => {
      if (!canary) fail(`cannot listen on ${hostAddress} to probe it: ${noCanary}`);
      const listening = canary;
      return mustFail('a listener on the host', hostAddress, listening.port, () =>
        listening.hits(),
      );
    });
    await checks.run('create and start a second (peer) clone', async () => {
      peer = await deps.manager.create({
        taskId: PEER_TASK_ID,
        allowedDomains: [...allowedDomains],
      });
      return `${peer.name} ready in ${peer.readyMs} ms`;
    });
    const peerService = (peer as LeasedClone | null)?.service.url;
    if (peerService) {
      const url = new URL(peerService);
      await checks.run(
        "from inside the clone: a direct connection to another clone's jail-service fails",
        () =>
          mustFail(
            `${(peer as LeasedClone | null)?.name}'s jail-service`,
            url.hostname,
            Number(url.port),
          ),
      );
    }
    await checks.run('from inside the clone: a direct connection to a public address fails', () =>
      mustFail('public', PUBLIC_TARGET.host, PUBLIC_TARGET.port),
    );
    await checks.run(
      'from inside the clone: its egress proxy answers (and refuses a host outside the allowlist)',
      async () => {
        const target = { host: proxy.hostname, port: Number(proxy.port) };
        const result = await from({ ...target, send: PROXY_PROBE });
        if (!result.ran) fail(`the probe did not run: ${result.outcome} (${shown(result)})`);
        if (!result.connected) fail(`${target.host}:${target.port}: ${result.outcome}`);
        if (!/^HTTP\/1\.[01] 403\b/.test(result.answer ?? '')) {
          fail(
            `${target.host}:${target.port} answered ${JSON.stringify(result.answer)}, expected 403`,
          );
        }
        return `${target.host}:${target.port}: ${result.answer}`;
      },
    );
  } finally {
    await canary?.close();
    const held = peer as LeasedClone | null;
    if (held) {
      await checks.run('destroy the peer clone', async () => {
        const { leftovers } = await deps.manager.destroy(held.name, held.leaseId);
        if (leftovers.length > 0) fail(`leftovers: ${leftovers.join(', ')}`);
        return `${held.name} destroyed`;
      });
    }
  }
  return (peer as LeasedClone | null)?.name ?? null;
}

function shown(result: InsideConnect): string {
  const [program, ...rest] = result.argv;
  return [program, ...rest.filter((arg) => !arg.includes('\n'))].join(' ');
}

// A clone's network: its own namespace, one veth pair (/30, no default route) and a drop-by-default
// nftables table inside the namespace (freebsd-jails.md §3.1–3.2).
import { readdir } from 'node:fs/promises';
import type { CommandRunner } from '@clawdie/kit/runner';
import type { CloneNamespace } from '../clone-namespace.js';
import { type InsideConnect, type InsideTarget, probeArgv, readProbe } from '../inside-probe.js';
import { indexFromShortName, type LinuxCloneNames } from './names.js';
import { NSENTER } from './sandbox.js';

export const IP = '/usr/sbin/ip';
export const NFT = '/usr/sbin/nft';
const NETNS_DIR = '/run/netns';
const SYS_NET_DIR = '/sys/class/net';
const TIMEOUT_MS = 10_000;

export interface NetworkPorts {
  /** Port of the jail-service on the clone address (host → clone). */
  servicePort: number;
  /** Port of the egress proxy on the host address (clone → host). */
  proxyPort: number;
}

/**
 * The clone may send only to its proxy on the host end; the host may reach only the jail-service.
 * Everything else, including other clones (there is no route), is dropped.
 */
export function nftRuleset(names: LinuxCloneNames, ports: NetworkPorts): string {
  return [
    'table inet clawdie {',
    '  chain input {',
    '    type filter hook input priority 0; policy drop;',
    '    iif "lo" accept',
    '    ct state established,related accept',
    `    iifname "${names.cloneVeth}" ip saddr ${names.hostAddress} tcp dport ${ports.servicePort} accept`,
    '  }',
    '  chain output {',
    '    type filter hook output priority 0; policy drop;',
    '    oif "lo" accept',
    '    ct state established,related accept',
    `    oifname "${names.cloneVeth}" ip daddr ${names.hostAddress} tcp dport ${ports.proxyPort} accept`,
    '  }',
    '  chain forward {',
    '    type filter hook forward priority 0; policy drop;',
    '  }',
    '}',
    '',
  ].join('\n');
}

/**
 * Creates namespace, veth, addresses and firewall in three commands, two of them concurrent: the
 * host side as one `ip -batch` (namespace first), then the clone side as one `ip -n … -batch`
 * alongside the whole nftables ruleset as one `nft -f -` transaction inside the namespace.
 * Throws with the failing command's stderr; whatever was made is removed by destroyNetwork.
 */
export async function createNetwork(
  runner: CommandRunner,
  names: LinuxCloneNames,
  ports: NetworkPorts,
): Promise<void> {
  const { netns, hostVeth, cloneVeth } = names;
  const host = [
    `netns add ${netns}`,
    `link add ${hostVeth} type veth peer name ${cloneVeth} netns ${netns}`,
    `addr add ${names.hostAddress}/30 dev ${hostVeth}`,
    `link set ${hostVeth} up`,
  ];
  const clone = [
    'link set lo up',
    `addr add ${names.cloneAddress}/30 dev ${cloneVeth}`,
    `link set ${cloneVeth} up`,
  ];
  await must(runner, [IP, '-batch', '-'], batch(host));
  const results = await Promise.allSettled([
    must(runner, [IP, '-n', netns, '-batch', '-'], batch(clone)),
    must(
      runner,
      [NSENTER, `--net=/run/netns/${netns}`, '--', NFT, '-f', '-'],
      nftRuleset(names, ports),
    ),
  ]);
  for (const result of results) if (result.status === 'rejected') throw result.reason;
}

function batch(lines: readonly string[]): string {
  return `${lines.join('\n')}\n`;
}

/**
 * Removes the veth pair (deleting the host end takes the clone end with it at once; a namespace
 * whose last user is gone is freed by the kernel later) and the named namespace, as one `ip -force
 * -batch` (one process; `-force` goes on past a line whose object is already gone). Idempotent.
 */
export async function destroyNetwork(
  runner: CommandRunner,
  names: LinuxCloneNames,
  namespace: CloneNamespace,
): Promise<void> {
  const present = await observeNetwork(namespace);
  const lines = [
    ...(present.links.has(names.index) ? [`link del ${names.hostVeth}`] : []),
    ...(present.namespaces.has(names.index) ? [`netns del ${names.netns}`] : []),
  ];
  if (lines.length === 0) return;
  await runner.run([IP, '-force', '-batch', '-'], { timeoutMs: TIMEOUT_MS, stdin: batch(lines) });
}

/**
 * Indexes of `namespace`'s clone network namespaces and host-side veth links that exist now (other
 * clone namespaces' are skipped), read where `ip netns list`
 * and `ip link show` read them (the named-namespace directory and hostd's own network namespace)
 * without starting a process: this runs several times per clone lifecycle.
 */
export async function observeNetwork(
  namespace: CloneNamespace,
): Promise<{ namespaces: Set<number>; links: Set<number> }> {
  const [netns, links] = await Promise.all([
    readdir(NETNS_DIR).catch(() => [] as string[]),
    readdir(SYS_NET_DIR).catch(() => [] as string[]),
  ]);
  const namespaces = new Set<number>();
  for (const name of netns) {
    const index = indexFromShortName(name, namespace);
    if (index !== null) namespaces.add(index);
  }
  const hostLinks = new Set<number>();
  for (const link of links) {
    const index = link.endsWith('h') ? indexFromShortName(link, namespace) : null;
    if (index !== null) hostLinks.add(index);
  }
  return { namespaces, links: hostLinks };
}

/** The host's node, in the clone's network namespace: the network its jail-service has. */
export async function connectInNetns(
  runner: CommandRunner,
  netns: string,
  target: InsideTarget,
): Promise<InsideConnect> {
  const argv = [IP, 'netns', 'exec', netns, ...probeArgv(process.execPath, target)];
  return readProbe(argv, await runner.run(argv, { timeoutMs: target.timeoutMs + 10_000 }));
}

async function must(runner: CommandRunner, argv: string[], stdin?: string): Promise<void> {
  const result = await runner.run(argv, {
    timeoutMs: TIMEOUT_MS,
    ...(stdin === undefined ? {} : { stdin }),
  });
  if (result.exitCode !== 0) {
    throw new Error(`${argv.join(' ')} failed (${result.exitCode}): ${result.stderr.trim()}`);
  }
}

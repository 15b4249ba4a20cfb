// A clone's network: its own namespace, one veth pair (/30, no default route) and a drop-by-default
// nftables table inside the namespace (freebsd-jails.md §3.1–3.2).
import type { CommandRunner } from '../../runner/command-runner.js';
import { indexFromShortName, type LinuxCloneNames } from './names.js';

export const IP = '/usr/sbin/ip';
export const NFT = '/usr/sbin/nft';
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

/** Creates namespace, veth, addresses and firewall; throws with the failing command's stderr. */
export async function createNetwork(
  runner: CommandRunner,
  names: LinuxCloneNames,
  ports: NetworkPorts,
): Promise<void> {
  const { netns, hostVeth, cloneVeth } = names;
  const steps: string[][] = [
    [IP, 'netns', 'add', netns],
    [IP, '-n', netns, 'link', 'set', 'lo', 'up'],
    [IP, 'link', 'add', hostVeth, 'type', 'veth', 'peer', 'name', cloneVeth, 'netns', netns],
    [IP, 'addr', 'add', `${names.hostAddress}/30`, 'dev', hostVeth],
    [IP, 'link', 'set', hostVeth, 'up'],
    [IP, '-n', netns, 'addr', 'add', `${names.cloneAddress}/30`, 'dev', cloneVeth],
    [IP, '-n', netns, 'link', 'set', cloneVeth, 'up'],
  ];
  for (const argv of steps) await must(runner, argv);
  await must(runner, [IP, 'netns', 'exec', netns, NFT, '-f', '-'], nftRuleset(names, ports));
}

/** Removes the namespace (which takes the veth pair with it) and any stray host end. Idempotent. */
export async function destroyNetwork(runner: CommandRunner, names: LinuxCloneNames): Promise<void> {
  const present = await observeNetwork(runner);
  if (present.namespaces.has(names.index)) {
    await runner.run([IP, 'netns', 'del', names.netns], { timeoutMs: TIMEOUT_MS });
  }
  if (present.links.has(names.index)) {
    await runner.run([IP, 'link', 'del', names.hostVeth], { timeoutMs: TIMEOUT_MS });
  }
}

/** Indexes of clone namespaces and host-side veth links that exist now. */
export async function observeNetwork(
  runner: CommandRunner,
): Promise<{ namespaces: Set<number>; links: Set<number> }> {
  const [netns, links] = await Promise.all([
    runner.run([IP, 'netns', 'list'], { timeoutMs: TIMEOUT_MS }),
    runner.run([IP, '-o', 'link', 'show'], { timeoutMs: TIMEOUT_MS }),
  ]);
  const namespaces = new Set<number>();
  for (const line of netns.stdout.split('\n')) {
    const index = indexFromShortName(line.split(' ')[0] ?? '');
    if (index !== null) namespaces.add(index);
  }
  const hostLinks = new Set<number>();
  for (const line of links.stdout.split('\n')) {
    const link = /^\d+:\s+([^:@\s]+)/.exec(line)?.[1] ?? '';
    const index = link.endsWith('h') ? indexFromShortName(link) : null;
    if (index !== null) hostLinks.add(index);
  }
  return { namespaces, links: hostLinks };
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

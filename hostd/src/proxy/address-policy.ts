// Which resolved addresses a clone's proxy may connect to. Whatever the task's allowlist says, a
// clone never reaches the host or its neighbours: loopback, unspecified, link-local, multicast and
// broadcast, the host's own interface addresses, and the clone subnet (other clones, hostd's proxy
// ends), and by default the private ranges (a LAN model server, the admin's other machines). The
// only way through is an admin exception naming an exact `address:port`
// (CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL), e.g. the bundled demo shop on 127.0.0.1:<port>, or — for
// private ranges only — CLAWDIE_HOSTD_EGRESS_ALLOW_PRIVATE=true for intranet sites.
import { BlockList, isIP, SocketAddress } from 'node:net';
import { networkInterfaces } from 'node:os';

/** The clones' /30s, 10.78.0.0 + 4·index (drivers/linux/names.ts, drivers/freebsd/names.ts). */
export const CLONE_SUBNET = { network: '10.78.0.0', prefix: 16 } as const;

const blockedV4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 connects to the host itself
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. 255.255.255.255 broadcast
  [CLONE_SUBNET.network, CLONE_SUBNET.prefix],
];
/** Private and shared ranges: blocked unless the admin allows private destinations. */
const privateV4: ReadonlyArray<readonly [string, number]> = [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10], // carrier-grade NAT, also used by overlay VPNs
];
const privateV6: ReadonlyArray<readonly [string, number]> = [['fc00::', 7]]; // unique local

const blockedV6: ReadonlyArray<readonly [string, number]> = [
  ['::', 96], // unspecified, loopback (::1) and the deprecated IPv4-compatible forms
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
];

export interface AddressPolicyOptions {
  /** Exact `address:port` entries (IPv6 as `[addr]:port`) a clone may reach although blocked. */
  internalExceptions?: readonly string[];
  /** The host's own addresses, read at every check (default: os.networkInterfaces()). */
  hostAddresses?: () => readonly string[];
  /** Let clones reach private ranges (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7); default no. */
  allowPrivate?: boolean;
}

export interface AddressPolicy {
  /** `blocked` when a clone must not connect to `address:port`; `allowed` otherwise. */
  check(address: string, port: number): 'allowed' | 'blocked';
  /** The configured exceptions, normalised (`127.0.0.1:41234`), for logs and the audit. */
  readonly exceptions: readonly string[];
}

/** Throws on a malformed exception entry (the config schema validates them first). */
export function createAddressPolicy(options: AddressPolicyOptions = {}): AddressPolicy {
  const blocked = new BlockList();
  for (const [network, prefix] of blockedV4) blocked.addSubnet(network, prefix, 'ipv4');
  for (const [network, prefix] of blockedV6) blocked.addSubnet(network, prefix, 'ipv6');
  if (!options.allowPrivate) {
    for (const [network, prefix] of privateV4) blocked.addSubnet(network, prefix, 'ipv4');
    for (const [network, prefix] of privateV6) blocked.addSubnet(network, prefix, 'ipv6');
  }
  const exceptions = (options.internalExceptions ?? []).map((entry) => {
    const parsed = parseAddressPort(entry);
    if (!parsed) throw new Error(`not an exact address:port: ${entry}`);
    return formatAddressPort(parsed.address, parsed.port);
  });
  const excepted = new Set(exceptions);
  const hostAddresses = options.hostAddresses ?? interfaceAddresses;
  return {
    exceptions,
    check(raw, port) {
      const address = canonicalAddress(raw);
      const family = isIP(address);
      if (family === 0) return 'blocked';
      const internal =
        blocked.check(address, family === 4 ? 'ipv4' : 'ipv6') ||
        hostAddresses().some((own) => canonicalAddress(own) === address);
      if (!internal) return 'allowed';
      return excepted.has(formatAddressPort(address, port)) ? 'allowed' : 'blocked';
    },
  };
}

/**
 * Lower-case, zone dropped, IPv4-mapped IPv6 (`::ffff:127.0.0.1`, `::ffff:7f00:1`) as plain
 * IPv4, so every form of one address compares equal.
 */
export function canonicalAddress(raw: string): string {
  const address = raw
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  if (isIP(address) !== 6) return address;
  const canonical = new SocketAddress({ address, family: 'ipv6' }).address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(canonical)?.[1];
  return mapped ?? canonical;
}

/** `127.0.0.1:8700` / `[::1]:8700` → address and port; null unless both are exact. */
export function parseAddressPort(entry: string): { address: string; port: number } | null {
  const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(entry.trim());
  if (!match?.[1] || !match[2]) return null;
  const address = canonicalAddress(match[1]);
  const port = Number(match[2]);
  if (isIP(address) === 0 || port < 1 || port > 65_535) return null;
  return { address, port };
}

function formatAddressPort(address: string, port: number): string {
  return isIP(address) === 6 ? `[${address}]:${port}` : `${address}:${port}`;
}

function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) =>
    (list ?? []).map((entry) => entry.address),
  );
}

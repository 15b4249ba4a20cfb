// Which client address a request counts as: the socket's peer, unless that peer is a configured
// reverse proxy (CLAWDIE_TRUSTED_PROXIES), in which case the right-most X-Forwarded-For entry
// that is not itself a trusted proxy. Anything a client writes into X-Forwarded-For is ignored
// unless a trusted proxy vouches for the hop (docs/operations.md, "Behind a reverse proxy").
import { BlockList, isIP } from 'node:net';
import { z } from 'zod';

/** Hops read from the right of X-Forwarded-For at most (a longer chain is someone's invention). */
const MAX_HOPS = 32;

/** One address or CIDR block (`10.0.0.0/8`, `::1`, `fd00::/8`), or null when it is neither. */
function parseBlock(entry: string): { address: string; prefix: number | null } | null {
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return null;
  if (prefix === undefined) return { address, prefix: null };
  const bits = Number(prefix);
  const max = family === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(prefix) && bits <= max ? { address, prefix: bits } : null;
}

/** CLAWDIE_TRUSTED_PROXIES: comma-separated addresses and CIDR blocks (empty: trust none). */
export const trustedProxyList = z
  .string()
  .transform((text) =>
    text
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  )
  .refine((entries) => entries.every((entry) => parseBlock(entry) !== null), {
    message: 'must be comma-separated IP addresses or CIDR blocks (e.g. 10.0.0.0/8, ::1)',
  });

/** `::ffff:1.2.3.4` → `1.2.3.4`; `1.2.3.4:5678` and `[::1]:80` (some proxies add the port) → the address. */
function normalise(entry: string): string {
  let address = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed?.[1]) address = bracketed[1];
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(address)) address = address.replace(/:\d+$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

/** Answers whether an address is one of the configured proxies. */
export type TrustedProxies = (address: string) => boolean;

/** The matcher over validated entries (`trustedProxyList`); throws on an invalid one (a bug). */
export function createTrustedProxies(entries: readonly string[]): TrustedProxies {
  if (entries.length === 0) return () => false;
  const blocks = new BlockList();
  for (const entry of entries) {
    const block = parseBlock(entry);
    if (!block) throw new Error(`not an address or CIDR block: ${entry}`);
    const family = isIP(block.address) === 4 ? 'ipv4' : 'ipv6';
    if (block.prefix === null) blocks.addAddress(block.address, family);
    else blocks.addSubnet(block.address, block.prefix, family);
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && blocks.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
}

/**
 * The client address of a request whose socket peer is `peer`: the peer itself unless it is a
 * trusted proxy; then X-Forwarded-For is walked from the right, skipping trusted proxies, and
 * the first other address is the client. An entry that is not an IP address stops the walk at
 * the last hop a proxy vouched for. Always an IP address or the peer string as given.
 */
export function resolveClientAddress(
  peer: string,
  forwardedFor: string | undefined,
  trusted: TrustedProxies,
): string {
  let address = normalise(peer);
  if (!trusted(address) || !forwardedFor) return address;
  const hops = forwardedFor.split(',').slice(-MAX_HOPS);
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    const hop = normalise(hops[index] ?? '');
    if (!isIP(hop)) return address;
    address = hop;
    if (!trusted(hop)) return hop;
  }
  return address;
}

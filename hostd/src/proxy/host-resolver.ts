// The egress proxy's DNS: a port so tests can answer with any address (a rebinding name that
// resolves to 127.0.0.1), and the real adapter over the system resolver. The proxy connects to the
// addresses it checked, never to the name, so a second, different answer cannot slip past it.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface HostResolver {
  /** Every address `host` resolves to (an IP literal resolves to itself). Rejects when none. */
  resolve(host: string): Promise<ResolvedAddress[]>;
}

/** The system resolver (getaddrinfo via dns.promises.lookup, every answer). */
export const systemResolver: HostResolver = {
  async resolve(host) {
    const literal = literalAddress(host);
    if (literal) return [literal];
    const answers = await lookup(host, { all: true, verbatim: true });
    return answers.map((answer) => ({
      address: answer.address,
      family: answer.family === 6 ? 6 : 4,
    }));
  },
};

/** `127.0.0.1` / `[::1]` / `::1` → that address; a name → null. */
export function literalAddress(host: string): ResolvedAddress | null {
  const bare = host.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  return family === 0 ? null : { address: bare, family: family === 6 ? 6 : 4 };
}

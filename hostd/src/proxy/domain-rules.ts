// Allowlist matching for the egress proxy. An entry is a host pattern and a port:
// `example.com` = that host on ports 80 and 443, `example.com:8443` = that host on 8443 only,
// `*.example.com` = any subdomain (not the apex), `*` = any host (80/443; `*:8443` any host on 8443).
// Hosts are compared lower-case, without a trailing dot. Which *addresses* a name may reach is
// decided after DNS by the address policy (address-policy.ts), whatever this list says.

/** True when the allowlist names `host` on `port`. */
export type DomainMatcher = (host: string, port: number) => boolean;

/** Ports an entry without `:port` allows: plain HTTP and HTTPS. */
export const DEFAULT_PORTS: readonly number[] = [80, 443];

interface Entry {
  kind: 'any' | 'exact' | 'suffix';
  host: string;
  ports: readonly number[];
}

/** Splits `host[:port]`; a port outside 1–65535 or not a number makes the entry match nothing. */
export function parseAllowEntry(raw: string): Entry | null {
  const match = /^(.*?)(?::(\d{1,5}))?$/.exec(normalise(raw));
  const pattern = match?.[1] ?? '';
  const portText = match?.[2];
  const port = portText === undefined ? null : Number(portText);
  if (pattern === '' || (port !== null && (port < 1 || port > 65_535))) return null;
  const ports = port === null ? DEFAULT_PORTS : [port];
  if (pattern === '*') return { kind: 'any', host: '', ports };
  if (pattern.startsWith('*.')) return { kind: 'suffix', host: pattern.slice(1), ports };
  return { kind: 'exact', host: pattern, ports };
}

export function compileAllowlist(patterns: readonly string[]): DomainMatcher {
  const entries = patterns.map(parseAllowEntry).filter((entry) => entry !== null);
  return (host, port) => {
    const name = normalise(host);
    if (name === '' || name.includes('/') || !Number.isInteger(port)) return false;
    return entries.some(
      (entry) =>
        entry.ports.includes(port) &&
        (entry.kind === 'any' ||
          (entry.kind === 'exact' && entry.host === name) ||
          (entry.kind === 'suffix' && name.endsWith(entry.host))),
    );
  };
}

function normalise(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '');
}

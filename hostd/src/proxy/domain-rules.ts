// Allowlist matching for the egress proxy: `example.com` = that host only, `*.example.com` = any
// subdomain (not the apex), `*` = any host. Hosts are compared lower-case, without a trailing dot.

export type DomainMatcher = (host: string) => boolean;

export function compileAllowlist(patterns: readonly string[]): DomainMatcher {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  let any = false;
  for (const raw of patterns) {
    const pattern = normalise(raw);
    if (pattern === '*') any = true;
    else if (pattern.startsWith('*.')) suffixes.push(pattern.slice(1));
    else if (pattern !== '') exact.add(pattern);
  }
  return (host) => {
    const name = normalise(host);
    if (name === '' || name.includes('/')) return false;
    return any || exact.has(name) || suffixes.some((suffix) => name.endsWith(suffix));
  };
}

function normalise(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '');
}

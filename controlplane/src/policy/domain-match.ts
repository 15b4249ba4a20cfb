/**
 * Host allow-listing: `example.org` matches exactly that host; `*.example.org` matches any
 * subdomain (not the apex). Comparison is case-insensitive and ignores a trailing dot.
 */
export function hostMatches(host: string, pattern: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  const p = pattern.toLowerCase().replace(/\.$/, '');
  if (p.startsWith('*.')) return h.endsWith(p.slice(1)) && h.length > p.length - 1;
  return h === p;
}

/** True when `url` is http(s) and its host matches one of `patterns`. */
export function urlAllowed(url: string, patterns: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(/^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  return patterns.some((pattern) => hostMatches(parsed.hostname, pattern));
}

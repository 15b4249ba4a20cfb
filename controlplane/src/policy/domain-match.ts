/**
 * Host allow-listing: `example.org` matches exactly that host; `*.example.org` matches any
 * subdomain (not the apex); `*` (policies only) matches every host. Comparison is
 * case-insensitive and ignores a trailing dot.
 */
export function hostMatches(host: string, pattern: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  const p = pattern.toLowerCase().replace(/\.$/, '');
  if (p === '*') return h.length > 0;
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

/** True when every host `pattern` matches is also matched by one of `allowed`. */
export function patternWithin(pattern: string, allowed: readonly string[]): boolean {
  const p = pattern.toLowerCase().replace(/\.$/, '');
  return allowed.some((candidate) => {
    const a = candidate.toLowerCase().replace(/\.$/, '');
    if (a === '*') return true;
    if (p === '*') return false;
    if (p.startsWith('*.')) return a.startsWith('*.') && (p === a || p.endsWith(a.slice(1)));
    return hostMatches(p, a);
  });
}

/** The host of an http(s) URL, or null. */
export function hostOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.hostname : null;
  } catch {
    return null;
  }
}

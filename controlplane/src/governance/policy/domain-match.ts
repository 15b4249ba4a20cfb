/**
 * Host allow-listing, the same rules hostd's egress proxy applies: `example.org` matches exactly
 * that host; `*.example.org` any subdomain (not the apex); `*` (policies only) every host. A
 * pattern covers ports 80 and 443, or with `:port` (`example.org:8443`) that port only. Comparison
 * is case-insensitive and ignores a trailing dot. Whatever a pattern says, hostd's proxy never
 * lets a clone reach the host's own or internal addresses (hostd/src/proxy/address-policy.ts).
 */
export function hostMatches(host: string, pattern: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  const p = splitPattern(pattern).host;
  if (p === '*') return h.length > 0;
  if (p.startsWith('*.')) return h.endsWith(p.slice(1)) && h.length > p.length - 1;
  return h === p;
}

/** Ports a pattern without `:port` covers. */
const defaultPorts: readonly number[] = [80, 443];

/** `example.org:8443` → host and its ports; no port → 80 and 443. */
export function splitPattern(pattern: string): { host: string; ports: readonly number[] } {
  const match = /^(.*?)(?::(\d{1,5}))?$/.exec(pattern.trim().toLowerCase());
  const host = (match?.[1] ?? '').replace(/\.$/, '');
  return { host, ports: match?.[2] ? [Number(match[2])] : defaultPorts };
}

/** True when `url` is http(s) and its host and port match one of `patterns`. */
export function urlAllowed(url: string, patterns: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(/^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  const port = Number(parsed.port || (parsed.protocol === 'http:' ? 80 : 443));
  return patterns.some(
    (pattern) =>
      hostMatches(parsed.hostname, pattern) && splitPattern(pattern).ports.includes(port),
  );
}

/** True when every host and port `pattern` matches is also matched by one of `allowed`. */
export function patternWithin(pattern: string, allowed: readonly string[]): boolean {
  const { host: p, ports } = splitPattern(pattern);
  return allowed.some((candidate) => {
    const { host: a, ports: allowedPorts } = splitPattern(candidate);
    if (!ports.every((port) => allowedPorts.includes(port))) return false;
    if (a === '*') return true;
    if (p === '*') return false;
    if (p.startsWith('*.')) return a.startsWith('*.') && (p === a || p.endsWith(a.slice(1)));
    return hostMatches(p, a);
  });
}

/**
 * Whether the http(s) origin or URL `place` (a frame, a destination) is one `pattern` names, for
 * the gate's frame, rule and secret checks: the host as `hostMatches`; a pattern with `:port` that
 * port only, one without every port of the host. Distinct ports are distinct origins: before this,
 * `127.0.0.1:8443` in a policy also named every other port of 127.0.0.1 (issue 20 point 6).
 */
export function placeMatches(place: string, pattern: string): boolean {
  const origin = webOriginOf(place);
  if (origin === null) return false;
  const url = new URL(origin);
  if (!hostMatches(url.hostname, pattern)) return false;
  const port = /:(\d{1,5})$/.exec(pattern.trim())?.[1];
  const actual = Number(url.port || (url.protocol === 'http:' ? 80 : 443));
  return port === undefined || Number(port) === actual;
}

/** The origin of an http(s) URL (`http://host:port`), or null. */
export function webOriginOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** `host:port` (or `host`) of an http(s) URL for messages, else the text as it is. */
export function placeName(url: string): string {
  const origin = webOriginOf(url);
  return origin ? new URL(origin).host : url;
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

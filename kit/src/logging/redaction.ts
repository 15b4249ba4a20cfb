// The one redaction list of every Clawdie process (controlplane, hostd, jail-service): fields with
// a secret's name are replaced whatever their depth, and strings are scrubbed for the secrets that
// hide inside free text: bearer tokens, JWTs, quoted Cookie/Set-Cookie headers and secret
// query-string parameters of logged URLs.
// One walk over each log call's arguments (pino's path-based `redact` with wildcards cost ~10x).

export const REDACTED = '[redacted]';

/**
 * Field names whose value is a secret at any depth: `token`, `hostdToken`, `secret`,
 * `clientSecret`, `apiKey`, `x-api-key`, `password`, `authorization`, `cookie`, `set-cookie`, `jwt`,
 * `leaseId`, ... (case-insensitive, matched on the end of the name; `maxTokens` is not one).
 */
const SECRET_KEY =
  /(?:token|secret|api[-_]?key|password|passphrase|authorization|cookies?|jwt|^leaseid)$/i;

/** Whether a field of this name is always redacted. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

const SECRET_PARAMS =
  'token|access_token|refresh_token|id_token|api_key|apikey|key|secret|client_secret|password|sig|signature|code';
const QUERY_SECRET = new RegExp(`([?&#](?:${SECRET_PARAMS})=)[^&#\\s"']+`, 'gi');
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
/** A `Cookie:` / `Set-Cookie:` header quoted in free text: its value up to the end of the line. */
const COOKIE_HEADER = /\b((?:set-)?cookie:\s*)[^\r\n"']+/gi;

/** Replaces secrets inside free text; returns the same string when there is nothing to hide. */
export function scrubText(text: string): string {
  if (text.length < 8) return text;
  return text
    .replace(JWT, REDACTED)
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(COOKIE_HEADER, `$1${REDACTED}`)
    .replace(QUERY_SECRET, `$1${REDACTED}`);
}

const MAX_DEPTH = 5;

/**
 * Redacts secret-named fields and scrubs every string of a log argument down to `MAX_DEPTH`.
 * Never mutates its input: a changed branch is copied, an unchanged one is returned as is.
 */
export function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return scrubError(value);
  if (ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) {
    const items = value.map((item) => scrubValue(item, depth + 1));
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  let copy: Record<string, unknown> | null = null;
  for (const [key, item] of Object.entries(value)) {
    const scrubbed =
      isSecretKey(key) && item !== undefined && item !== null
        ? REDACTED
        : scrubValue(item, depth + 1);
    if (scrubbed === item) continue;
    copy ??= { ...(value as Record<string, unknown>) };
    copy[key] = scrubbed;
  }
  return copy ?? value;
}

function scrubError(error: Error): Error {
  const message = scrubText(error.message);
  const stack = error.stack === undefined ? undefined : scrubText(error.stack);
  if (message === error.message && stack === error.stack) return error;
  const copy = Object.assign(Object.create(Object.getPrototypeOf(error)) as Error, error);
  Object.defineProperty(copy, 'message', { value: message, enumerable: false, writable: true });
  Object.defineProperty(copy, 'stack', { value: stack, enumerable: false, writable: true });
  return copy;
}

// Bounds on what one audit row may hold, so a caller that passes attacker-sized input (an 8 KB
// path, a header) cannot grow the log by more than a few hundred bytes a row. Over-long text is
// kept as a prefix plus its length and SHA-256, enough to match it against a log or a capture.
import { createHash } from 'node:crypto';

/** Longest string (UTF-8 bytes) stored for one field of a row; the safety net under every append. */
export const AUDIT_FIELD_MAX_BYTES = 1024;
/** Longest row `data` (canonical JSON bytes); past it only its digest and top-level keys are kept. */
export const AUDIT_DATA_MAX_BYTES = 16 * 1024;
/** What routes allow for an attacker-controlled string (path, id, address) in a refusal row. */
export const ATTACKER_TEXT_MAX_BYTES = 200;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * `value` itself when it fits in `maxBytes` (UTF-8); else a prefix followed by
 * `…[<bytes> B sha256:<hex>]`, the whole at most `maxBytes` (`maxBytes` ≥ 100).
 */
export function boundText(value: string, maxBytes: number = ATTACKER_TEXT_MAX_BYTES): string {
  const bytes = Buffer.byteLength(value);
  if (bytes <= maxBytes) return value;
  const marker = `…[${bytes} B sha256:${sha256(value)}]`;
  const budget = Math.max(0, maxBytes - Buffer.byteLength(marker));
  let prefix = value.slice(0, budget);
  while (Buffer.byteLength(prefix) > budget) prefix = prefix.slice(0, -1);
  // Never end on half a surrogate pair (it would not round-trip through JSON as the same text).
  if (/[\uD800-\uDBFF]$/.test(prefix)) prefix = prefix.slice(0, -1);
  return prefix + marker;
}

function boundValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return boundText(value, AUDIT_FIELD_MAX_BYTES);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 16) return '[nested too deep]';
  if (Array.isArray(value)) return value.map((item) => boundValue(item, depth + 1));
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return boundValue((value as { toJSON(): unknown }).toJSON(), depth + 1);
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value))
    out[boundText(key, ATTACKER_TEXT_MAX_BYTES)] = boundValue(member, depth + 1);
  return out;
}

/**
 * The event as the audit log stores it: actor and task id at most `ATTACKER_TEXT_MAX_BYTES`,
 * every string in `data` at most `AUDIT_FIELD_MAX_BYTES`, and `data` as a whole at most
 * `AUDIT_DATA_MAX_BYTES` (else replaced by `{ truncated, bytes, sha256, keys }`). Routes bound
 * attacker input tighter themselves; this is the safety net for every caller.
 */
export function boundAuditEvent(
  event: { actor: string; taskId?: string | null; data?: Record<string, unknown> },
  encode: (value: unknown) => string,
): { actor: string; taskId: string | null; data: string } {
  const data = boundValue(event.data ?? {}, 0) as Record<string, unknown>;
  let encoded = encode(data);
  if (Buffer.byteLength(encoded) > AUDIT_DATA_MAX_BYTES) {
    const keys = Object.keys(data).slice(0, 32);
    encoded = encode({
      truncated: true,
      bytes: Buffer.byteLength(encoded),
      sha256: sha256(encoded),
      keys,
    });
  }
  return {
    actor: boundText(event.actor),
    taskId: event.taskId == null ? null : boundText(event.taskId),
    data: encoded,
  };
}

// The proof that a request was forwarded by another replica of the same store: an HMAC-SHA256,
// under a key every replica derives from the audit key they already share, over the method, the
// path with its query, a body digest, the sending and receiving replica, a timestamp, a nonce,
// the principal the sender authorized and the client's address. A receiver accepts it only
// addressed to itself, within a few seconds, and once.
import { createHash, createHmac, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { type Principal, scopes } from '../../../governance/auth/scopes.js';

/** Every forward header starts with this; a request with any of them must carry a valid set. */
export const FORWARD_HEADER_PREFIX = 'x-clawdie-forward-';
const header = {
  from: `${FORWARD_HEADER_PREFIX}from`,
  to: `${FORWARD_HEADER_PREFIX}to`,
  at: `${FORWARD_HEADER_PREFIX}at`,
  nonce: `${FORWARD_HEADER_PREFIX}nonce`,
  principal: `${FORWARD_HEADER_PREFIX}principal`,
  client: `${FORWARD_HEADER_PREFIX}client`,
  signature: `${FORWARD_HEADER_PREFIX}signature`,
} as const;

/** How far a forward's timestamp may be from the receiver's clock (replay window). */
export const FORWARD_WINDOW_MS = 5_000;

const principalSchema = z.strictObject({
  tenant: z.string(),
  subject: z.string(),
  scopes: z.array(z.enum(scopes)),
  via: z.enum(['token', 'loopback']),
});

/** What a verified forward tells its receiver. */
export interface ForwardClaims {
  from: string;
  to: string;
  at: number;
  nonce: string;
  /** The caller the sending replica authorized; null for routes with their own auth (takeover). */
  principal: Principal | null;
  /** The client's address as the sending replica resolved it (limiters, audit rows). */
  client: string;
}

/** The request a signature covers. */
export interface ForwardedRequest {
  method: string;
  /** Path and query, as sent. */
  target: string;
  body: Uint8Array | null;
}

/** The forwarding key: HMAC of the shared audit key with its own label (never the key itself). */
export function deriveForwardKey(auditKey: KeyObject): Buffer {
  return createHmac('sha256', auditKey).update('clawdie replica-forward v1').digest();
}

const digest = (body: Uint8Array | null) =>
  createHash('sha256')
    .update(body ?? new Uint8Array())
    .digest('base64url');

function mac(key: Buffer, request: ForwardedRequest, fields: Record<string, string>): Buffer {
  const parts = [request.method.toUpperCase(), request.target, digest(request.body)];
  for (const name of ['from', 'to', 'at', 'nonce', 'principal', 'client'] as const)
    parts.push(fields[name] ?? '');
  return createHmac('sha256', key).update(parts.join('\n')).digest();
}

/** The headers that carry `claims` (minus the nonce, made here) for `request`. */
export function signForward(
  key: Buffer,
  request: ForwardedRequest,
  claims: Omit<ForwardClaims, 'nonce'>,
): Record<string, string> {
  const fields = {
    from: claims.from,
    to: claims.to,
    at: String(claims.at),
    nonce: randomBytes(16).toString('base64url'),
    principal: claims.principal
      ? Buffer.from(JSON.stringify(claims.principal)).toString('base64url')
      : '',
    client: claims.client,
  };
  const signature = mac(key, request, fields).toString('base64url');
  const headers: Record<string, string> = { [header.signature]: signature };
  for (const [name, value] of Object.entries(fields))
    headers[header[name as keyof typeof fields]] = value;
  return headers;
}

/** Why a forward was refused: a code for the audit row and a message for the answer. */
export interface ForwardRefusal {
  code: 'FORWARD_SIGNATURE_INVALID' | 'FORWARD_STALE' | 'FORWARD_REPLAYED' | 'FORWARD_MISADDRESSED';
  message: string;
}

/**
 * Checks the forward headers of `request` for the replica `self` at `now`; `seen` holds the
 * nonces accepted within the window (a replayed one is refused). Never throws.
 */
export function verifyForward(
  key: Buffer,
  request: ForwardedRequest,
  read: (name: string) => string | undefined,
  options: { self: string; now: number; seen: Map<string, number> },
): { claims: ForwardClaims } | { refusal: ForwardRefusal } {
  const refuse = (code: ForwardRefusal['code'], message: string) => ({
    refusal: { code, message },
  });
  const fields = Object.fromEntries(
    Object.entries(header).map(([name, value]) => [name, read(value) ?? '']),
  ) as Record<keyof typeof header, string>;
  const given = Buffer.from(fields.signature, 'base64url');
  const expected = mac(key, request, fields);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return refuse('FORWARD_SIGNATURE_INVALID', 'the replica forward signature is not valid');
  if (fields.to !== options.self)
    return refuse('FORWARD_MISADDRESSED', 'the forward is addressed to another replica');
  const at = Number(fields.at);
  if (!Number.isFinite(at) || Math.abs(options.now - at) > FORWARD_WINDOW_MS)
    return refuse('FORWARD_STALE', 'the forward is outside its replay window');
  for (const [nonce, until] of options.seen) if (until < options.now) options.seen.delete(nonce);
  if (!fields.nonce || options.seen.has(fields.nonce))
    return refuse('FORWARD_REPLAYED', 'the forward was already used');
  let principal: Principal | null = null;
  try {
    if (fields.principal)
      principal = principalSchema.parse(
        JSON.parse(Buffer.from(fields.principal, 'base64url').toString('utf8')),
      );
  } catch {
    return refuse('FORWARD_SIGNATURE_INVALID', 'the forwarded principal is not readable');
  }
  options.seen.set(fields.nonce, at + FORWARD_WINDOW_MS);
  return {
    claims: {
      from: fields.from,
      to: fields.to,
      at,
      nonce: fields.nonce,
      principal,
      client: fields.client,
    },
  };
}

// hostd's HTTP contract: zod schemas for every request and response, shared by hostd's routes
// (input validation) and HostdClient (response validation). Import via `@clawdie/hostd/api`.
import { z } from 'zod';

/**
 * `example.com` (exact host), `*.example.com` (every subdomain, not the apex) or `*` (any host: the
 * proxy still carries and logs every connection, the controlplane's policy decides), each on ports
 * 80 and 443, or with `:port` on that port only (`example.com:8443`). No pattern reaches loopback,
 * link-local, the host's own or the clones' addresses: see proxy/address-policy.ts.
 */
export const DomainPatternSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(\*|(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(:([1-9]\d{0,3}|[1-5]\d{4}|6[0-4]\d{3}|65[0-4]\d{2}|655[0-2]\d|6553[0-5]))?$/,
    'must be a host name such as example.com, *.example.com, or *, optionally with :port',
  );

export const CloneLimitsSchema = z.object({
  memoryMb: z.number().int().min(64).max(65_536),
  pids: z.number().int().min(16).max(65_536),
  /** Percent of one CPU core: 100 = one core. */
  cpuPercent: z.number().int().min(5).max(6400),
});
export type CloneLimits = z.infer<typeof CloneLimitsSchema>;

/** A lease's holder: the caller's own name for itself (a controlplane's instance id). */
export const HolderSchema = z.string().min(1).max(200);

export const CreateCloneRequestSchema = z.object({
  taskId: z.string().min(1).max(200),
  /**
   * The caller's name, stored with the lease, shown in `GET /clones` and matched by
   * `POST /leases/revoke`. Without it the lease is unnamed (older controlplanes).
   */
  holder: HolderSchema.optional(),
  allowedDomains: z.array(DomainPatternSchema).max(200).default([]),
  /** Missing fields take hostd's configured defaults. */
  limits: CloneLimitsSchema.partial().optional(),
  /** A virtual display (headful Chromium); defaults to hostd's configuration. */
  display: z.boolean().optional(),
  /**
   * Refuse (503 HOST_FULL, nothing made) when the host already holds this many leased clones,
   * whoever holds them: a fleet sends the host's registered capacity. Without it, no bound.
   */
  maxLeases: z.number().int().min(1).max(100_000).optional(),
});
export type CreateCloneRequest = z.input<typeof CreateCloneRequestSchema>;

export const IsolationSchema = z.object({
  level: z.enum(['full', 'reduced']),
  reasons: z.array(z.string()),
});
export type Isolation = z.infer<typeof IsolationSchema>;

/**
 * The header every per-clone request carries: the lease id `POST /clones` returned. A request whose
 * lease is not the clone's current one is refused (404 LEASE_NOT_FOUND, 409 LEASE_MISMATCH).
 */
export const LEASE_HEADER = 'clawdie-lease';

/**
 * hostd relays every request under this path, whatever its method and rest of path, to the
 * clone's own jail-service while `leaseId` is the clone's current lease: for a caller that cannot
 * route to the clone's address. hostd's bearer token is the only credential the caller sends.
 */
export function serviceRelayPath(lease: { name: string; leaseId: string }): string {
  return `/clones/${encodeURIComponent(lease.name)}/leases/${encodeURIComponent(lease.leaseId)}/service`;
}

/** Bound on a relayed request body (uploads to the clone): 64 MiB. */
export const MAX_RELAY_BODY_BYTES = 64 * 1024 * 1024;

export const CloneSchema = z.object({
  /**
   * `browsertask<namespace>NNN` (`browsertask007` in the default namespace); the id in every
   * /clones/:name route (never reused while its last lease's records remain).
   */
  name: z.string().regex(/^browsertask(?:[a-z][a-z0-9]{0,7})?\d{3}$/),
  index: z.number().int(),
  /** Increases with every lease hostd hands out (and every warm clone it makes). */
  generation: z.number().int().positive(),
  taskId: z.string(),
  /** The lease's holder as `POST /clones` named it; null: unnamed. Absent from older hostd. */
  holder: z.string().nullable().optional(),
  state: z.enum(['created', 'running', 'broken']),
  /** The clone's jail-service: talk to it with `Authorization: Bearer <token>`. */
  service: z.object({ url: z.string().url(), token: z.string().min(1) }),
  isolation: IsolationSchema,
  allowedDomains: z.array(z.string()),
  limits: CloneLimitsSchema,
  display: z.string().nullable(),
  /** `http://host:port` of the clone's egress proxy (host side). */
  egressProxyUrl: z.string().nullable(),
  /**
   * The admin's exact `address:port` exceptions to the internal-address block that this clone's
   * proxy honours (CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL); audited with the clone.
   */
  egressExceptions: z.array(z.string()).optional(),
  /** True when the clone came ready-made from the warm pool. */
  fromPool: z.boolean(),
  createdAt: z.string(),
  /** Milliseconds from the request to a healthy clone (0 is impossible; pool hand-outs are fast). */
  readyMs: z.number(),
});
export type Clone = z.infer<typeof CloneSchema>;

/** What `POST /clones` answers: the clone and the lease id that alone may act on it. */
export const LeasedCloneSchema = CloneSchema.extend({
  /** Random and unguessable; send it as the `clawdie-lease` header on every per-clone request. */
  leaseId: z.string().min(16),
});
export type LeasedClone = z.infer<typeof LeasedCloneSchema>;

export const CloneListSchema = z.object({ clones: z.array(CloneSchema) });
export type CloneList = z.infer<typeof CloneListSchema>;

export const DestroyCloneResponseSchema = z.object({
  name: z.string(),
  /** Always true: destroy is idempotent, an unknown clone is already destroyed. */
  destroyed: z.literal(true),
  /** OS resources still observed after teardown; empty means verified clean. */
  leftovers: z.array(z.string()),
});
export type DestroyCloneResponse = z.infer<typeof DestroyCloneResponseSchema>;

/**
 * `POST /leases/revoke`: end exactly the task leases whose holder is one of `holders` (and, with
 * `unnamed`, those without a holder), destroying their clones; every other lease and the warm
 * pool stay. The caller names the holders it knows are gone: a holder that appears meanwhile is
 * never hit.
 */
export const RevokeLeasesRequestSchema = z.object({
  holders: z.array(HolderSchema).max(1000),
  unnamed: z.boolean().default(false),
});
export type RevokeLeasesRequest = z.input<typeof RevokeLeasesRequestSchema>;

/**
 * `POST /leases/revoke-all` (every task lease) and `POST /leases/revoke` (the named holders'):
 * each lease ended and its clone destroyed (warm pool kept).
 */
export const RevokeAllResponseSchema = z.object({
  revoked: z.array(
    z.object({
      name: z.string(),
      taskId: z.string(),
      holder: z.string().nullable().optional(),
      generation: z.number().int(),
      leftovers: z.array(z.string()),
    }),
  ),
});
export type RevokeAllResponse = z.infer<typeof RevokeAllResponseSchema>;

/** One connection the egress proxy refused: the audit record for the controlplane. */
export const EgressRefusalSchema = z.object({
  /** Increasing per hostd process; resume a lease's stream or list with `after=<seq>`. */
  seq: z.number().int(),
  name: z.string(),
  /** The lease the clone was under when the proxy refused (a warm-up lease before hand-out). */
  leaseId: z.string(),
  generation: z.number().int(),
  /** The lease's task (`warm-pool` for a warm clone not yet handed out). */
  taskId: z.string(),
  /** The host the clone tried to reach (CONNECT target or absolute-URL host). */
  host: z.string(),
  port: z.number().int(),
  method: z.string(),
  /**
   * `not-allowed`: host:port not in the allowlist; `blocked-address`: it resolved to an address a
   * clone never reaches (loopback, link-local, the host's or a clone's); `bad-request`: malformed.
   */
  reason: z.enum(['not-allowed', 'bad-request', 'blocked-address']),
  /** For `blocked-address`: the resolved `address:port` that was refused. */
  address: z.string().optional(),
  at: z.string(),
});
export type EgressRefusal = z.infer<typeof EgressRefusalSchema>;

export const EgressRefusalListSchema = z.object({ refusals: z.array(EgressRefusalSchema) });

export const HealthSchema = z.object({
  ok: z.boolean(),
  driver: z.string(),
  isolation: IsolationSchema,
  pool: z.object({
    target: z.number().int(),
    ready: z.number().int(),
    /** Warm clones being made now. */
    filling: z.number().int(),
    /** Failed warm-clone attempts since the last success (0 = healthy). */
    failures: z.number().int(),
    lastError: z.string().nullable(),
    lastErrorAt: z.string().nullable(),
    /** When the next refill attempt runs after a failure (exponential backoff); null if none waits. */
    retryAt: z.string().nullable(),
  }),
  clones: z.number().int(),
});
export type Health = z.infer<typeof HealthSchema>;

export const ErrorResponseSchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});

// The controlplane's configuration as the rest of the code reads it (config.ts parses it).
import type { ImageEncoderMode } from '@clawdie/kit/images';
import type { JudgeConfig, ModelConfig } from './config-model.js';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  host: string;
  port: number;
  /** Bound on every HTTP request body (CLAWDIE_MAX_BODY_BYTES, 1 MiB). */
  maxBodyBytes: number;
  /** Human takeover: where links point (null: the listen address) and how long they live. */
  takeover: { publicUrl: string | null; linkTtlMs: number };
  dataDir: string;
  databasePath: string;
  /**
   * CLAWDIE_DATABASE_URL: a PostgreSQL store shared by replicas; null for SQLite at databasePath.
   * Parsed and checked only: the composition root does not switch on it yet.
   */
  databaseUrl: string | null;
  /** Where the other replicas reach this one (CLAWDIE_REPLICA_URL); null: its listen address. */
  replicaUrl: string | null;
  /**
   * CLAWDIE_REPLICA_HEARTBEAT_MS / _TIMEOUT_MS: how often this process beats in the instances
   * table (on PostgreSQL also the period of the sweep of gone replicas and of the Telegram
   * polling lock's retry) and how old a heartbeat is gone (> 2 heartbeats).
   */
  replicas: { heartbeatMs: number; timeoutMs: number };
  logLevel: LogLevel;
  /** CLAWDIE_IMAGE_ENCODER: which image codec encodes the model's screenshots (default auto). */
  imageEncoder: ImageEncoderMode;
  model: ModelConfig;
  /**
   * The vision judge of `visual` conditions (waits, success_criteria, logged_in_check): its own
   * endpoint, the task model, or none — then a task or wait that asks for one is refused (400).
   */
  judge: JudgeConfig | null;
  loop: {
    actionSpace: 'browser' | 'computer';
    maxSteps: number;
    maxParseFailures: number;
    waitMs: number;
    scrollAmount: number;
    /** UI-TARS `wait()` watches the screen instead of sleeping (docs/waits.md). */
    smartWait: boolean;
    /** Loop guard: task-stuck report after this idle time (0 = off), stop bound, how to stop. */
    guard: { stuckAfterMs: number; repeatStopAt: number; onStop: 'error' | 'call_user' };
  };
  /** An already-running jail-service to drive; null means `npm start` launches a local one. */
  jail: { url: string; token: string } | null;
  /** hostd gives every task its own clone; null means one local or configured jail-service. */
  hostd: { url: string; token: string; concurrency: number } | null;
  /**
   * `npm start` runs hostd itself when it can (root on Linux or FreeBSD) and neither hostd nor a jail-service
   * is configured; `concurrency` is then the number of clones at once.
   */
  embeddedHostd: { enabled: boolean; concurrency: number };
  /** The local jail-service (no hostd): the uid it runs as when we are root (0: root). */
  localBrowser: { uid: number };
  /**
   * Registered jail hosts (`clawdie hosts`): whether tasks are placed on them, the heartbeat
   * period, and the age at which a silent host is down.
   */
  fleet: { enabled: boolean; heartbeatMs: number; staleMs: number };
  /** Exact internal `address:port` pairs hostd's clones may reach when a task names them (default none). */
  egressAllowInternal: readonly string[];
  /** Static admin token for the dashboard login (an admin-scope JWT also works when auth is on). */
  adminToken: string | null;
  /**
   * API auth: signed tokens when `jwksFile` exists; else, when `required` (the default), the admin
   * token is the only bearer; off (loopback-only) needs an explicit CLAWDIE_AUTH_REQUIRED=false.
   */
  auth: { jwksFile: string; required: boolean; issuer: string; audience: string };
  /** Refused requests per client address and window before 429 (every refusing route). */
  authFailures: { limit: number; windowMs: number };
  /** Peers whose X-Forwarded-For is believed (addresses, CIDR blocks); empty: none, the default. */
  trustedProxies: readonly string[];
  /** HMAC key of the audit chain (never in the database); its head record sits next to it. */
  auditKeyFile: string;
  /** Tenant policy files (`<tenant>.yaml`, `default.yaml` required). */
  policyDir: string;
  /** AES-256-GCM key of the secrets vault (never in the database). */
  secretsKeyFile: string;
  /** Default lifetime of a saved session profile (CLAWDIE_SESSION_TTL_S). */
  sessionTtlS: number;
  /** Supervisor approvals over Telegram; null = API only. */
  telegram: { token: string; chatIds: number[]; allowedUserIds: number[]; apiRoot: string } | null;
}

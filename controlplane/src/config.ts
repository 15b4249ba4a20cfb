// The controlplane's only reader of the environment: CLAWDIE_* variables parsed once with zod.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addressPortList } from '@clawdie/hostd/api';
import { bearerTokenSyntax } from '@clawdie/kit/auth';
import { IMAGE_ENCODER_MODES } from '@clawdie/kit/images';
import { z } from 'zod';
import { judgeConfig, modelConfig, modelVariables } from './config-model.js';
import { type Config, LOG_LEVELS } from './config-shape.js';
import { ConfigError } from './errors.js';
import { trustedProxyList } from './ingress/http/trusted-proxies.js';

/** The repository's `policies/` (same depth from src/ and dist/). */
const shippedPolicies = fileURLToPath(new URL('../../policies', import.meta.url));

/** Comma-separated Telegram ids (chats may be negative). */
const idList = z
  .string()
  .regex(/^\s*-?\d+(\s*,\s*-?\d+)*\s*$/, 'must be comma-separated numeric ids')
  .transform((text) => text.split(',').map((id) => Number(id.trim())));

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const schema = z.object({
  CLAWDIE_HOST: z.string().min(1).default('127.0.0.1'),
  CLAWDIE_PORT: int(0, 65535).default(8700),
  /** Bound on every HTTP request body of the controlplane (413 past it). */
  CLAWDIE_MAX_BODY_BYTES: int(1024, 1024 ** 3).default(1024 * 1024),
  CLAWDIE_DATA_DIR: z.string().min(1).default('data'),
  /** A shared PostgreSQL store instead of SQLite in the data dir (not yet used: see operations). */
  CLAWDIE_DATABASE_URL: z
    .string()
    .regex(
      /^postgres(ql)?:\/\/./,
      'must be a postgres:// or postgresql:// URL (unset: SQLite in CLAWDIE_DATA_DIR)',
    )
    .optional(),
  /** How often each controlplane beats in the instances table (and, on PostgreSQL, sweeps gone replicas). */
  CLAWDIE_REPLICA_HEARTBEAT_MS: int(50, 600_000).default(5000),
  /** A replica silent this long is gone: its tasks end INTERRUPTED (more than 2 heartbeats). */
  CLAWDIE_REPLICA_TIMEOUT_MS: int(150, 3_600_000).default(20_000),
  /** Base URL supervisors reach the controlplane at (takeover links); default its listen address. */
  CLAWDIE_PUBLIC_URL: z.url().optional(),
  /**
   * Where the other replicas on one PostgreSQL reach this one (forwarded live views, takeovers,
   * trace files); default its listen address, which peers cannot reach when it is 0.0.0.0.
   */
  CLAWDIE_REPLICA_URL: z.url().optional(),
  /** Lifetime of a signed single-use takeover link, seconds. */
  CLAWDIE_TAKEOVER_LINK_TTL_S: int(30, 86_400).default(600),
  CLAWDIE_LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  ...modelVariables,
  /** Image encoder: sharp when it loads (auto), sharp or refuse to start, or pure JS. */
  CLAWDIE_IMAGE_ENCODER: z.enum(IMAGE_ENCODER_MODES).default('auto'),
  CLAWDIE_ACTION_SPACE: z.enum(['browser', 'computer']).default('browser'),
  CLAWDIE_MAX_STEPS: int(1, 500).default(30),
  CLAWDIE_MAX_PARSE_FAILURES: int(1, 20).default(3),
  CLAWDIE_WAIT_MS: int(0, 60_000).default(5000),
  CLAWDIE_SCROLL_AMOUNT: int(1, 10_000).default(500),
  CLAWDIE_SMART_WAIT: z.enum(['true', 'false', '1', '0']).default('true'),
  CLAWDIE_STUCK_AFTER_S: int(0, 86_400).default(180),
  CLAWDIE_LOOP_REPEAT_LIMIT: int(2, 100).default(9),
  CLAWDIE_LOOP_STOP: z.enum(['error', 'call_user']).default('error'),
  CLAWDIE_JAIL_URL: z.url().optional(),
  CLAWDIE_JAIL_TOKEN: z.string().min(16).optional(),
  CLAWDIE_HOSTD_URL: z.url().optional(),
  CLAWDIE_HOSTD_TOKEN: z.string().min(16).optional(),
  CLAWDIE_HOSTD_CONCURRENCY: int(1, 64).default(4),
  /** `npm start` starts its own hostd (root on Linux or FreeBSD) unless `off` or a hostd/jail URL is set. */
  CLAWDIE_HOSTD: z.enum(['auto', 'off']).default('auto'),
  /** `on`: tasks' clones go to the jail hosts registered with `clawdie hosts add` (no embedded hostd). */
  CLAWDIE_FLEET: z.enum(['off', 'on']).default('off'),
  /** How often registered jail hosts are asked for their health, and when a silent one is down. */
  CLAWDIE_FLEET_HEARTBEAT_MS: int(500, 600_000).default(5000),
  CLAWDIE_FLEET_STALE_MS: int(1000, 3_600_000).default(20_000),
  /** The uid (and gid) of the local browser when the controlplane is root; 0 keeps root. */
  CLAWDIE_LOCAL_BROWSER_UID: int(0, 4_000_000).default(19_999),
  /** Host-internal address:port pairs the embedded hostd's clones may reach (audited). */
  CLAWDIE_EGRESS_ALLOW_INTERNAL: addressPortList.optional(),
  CLAWDIE_ADMIN_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .regex(bearerTokenSyntax, 'may contain only letters, digits and -._~+/ (then = padding)')
    .optional(),
  CLAWDIE_AUTH_JWKS_FILE: z.string().min(1).optional(),
  /** On by default (the admin token is the bearer until a JWKS file exists); `false` = off. */
  CLAWDIE_AUTH_REQUIRED: z.enum(['true', 'false', '1', '0']).default('true'),
  CLAWDIE_AUTH_ISSUER: z.string().min(1).default('clawdie'),
  CLAWDIE_AUTH_AUDIENCE: z.string().min(1).default('clawdie-api'),
  /** Refused requests per client address and window before 429 (a handful of audit rows each). */
  CLAWDIE_AUTH_FAILURE_LIMIT: int(1, 1_000_000).default(30),
  CLAWDIE_AUTH_FAILURE_WINDOW_S: int(1, 86_400).default(60),
  CLAWDIE_TRUSTED_PROXIES: trustedProxyList.optional(),
  CLAWDIE_AUDIT_KEY_FILE: z.string().min(1).optional(),
  CLAWDIE_POLICY_DIR: z.string().min(1).optional(),
  CLAWDIE_SECRETS_KEY_FILE: z.string().min(1).optional(),
  /** Default lifetime of a saved session profile, in seconds (7 days; `--ttl` overrides). */
  CLAWDIE_SESSION_TTL_S: int(60, 365 * 86_400).default(7 * 86_400),
  CLAWDIE_TELEGRAM_BOT_TOKEN: z
    .string()
    .regex(/^\d+:[\w-]+$/, 'must look like 123456:ABC-def')
    .optional(),
  CLAWDIE_TELEGRAM_CHAT_IDS: idList.optional(),
  CLAWDIE_TELEGRAM_ALLOWED_USER_IDS: idList.optional(),
  CLAWDIE_TELEGRAM_API_ROOT: z.url().default('https://api.telegram.org'),
});

/** The schema with its cross-variable rules. */
const checked = schema.superRefine((e, context) => {
  const heartbeat = e.CLAWDIE_REPLICA_HEARTBEAT_MS;
  if (e.CLAWDIE_REPLICA_TIMEOUT_MS > 2 * heartbeat) return;
  context.addIssue({
    code: 'custom',
    path: ['CLAWDIE_REPLICA_TIMEOUT_MS'],
    message: `must be more than twice CLAWDIE_REPLICA_HEARTBEAT_MS (2 × ${heartbeat} = ${2 * heartbeat} ms): else one late heartbeat counts a live replica as gone and ends its tasks`,
  });
});

export type { JudgeConfig, ModelConfig } from './config-model.js';
export type { Config, LogLevel } from './config-shape.js';

/** Reads `<NAME>_FILE` into `<NAME>` for secrets, so they need not sit in the environment. */
function withSecretFiles(
  env: Record<string, string | undefined>,
): Record<string, string | undefined> {
  const out = { ...env };
  for (const name of [
    'CLAWDIE_MODEL_API_KEY',
    'CLAWDIE_JUDGE_API_KEY',
    'CLAWDIE_JAIL_TOKEN',
    'CLAWDIE_TELEGRAM_BOT_TOKEN',
    'CLAWDIE_HOSTD_TOKEN',
    'CLAWDIE_ADMIN_TOKEN',
    'CLAWDIE_DATABASE_URL',
  ]) {
    const file = env[`${name}_FILE`];
    if (file && !env[name]) {
      try {
        out[name] = readFileSync(file, 'utf8').trim();
      } catch (error) {
        throw new ConfigError(`${name}_FILE=${file} cannot be read: ${(error as Error).message}`);
      }
    }
  }
  return out;
}

/**
 * Parses the environment into a frozen Config. Pure apart from reading `*_FILE` secrets and a
 * CLAWDIE_MODEL_PRICES file.
 * Throws ConfigError naming every bad variable.
 */
export function loadConfig(env: Record<string, string | undefined>, cwd = '.'): Readonly<Config> {
  const nonEmpty = Object.fromEntries(
    Object.entries(withSecretFiles(env)).filter(([, v]) => v !== ''),
  );
  const parsed = checked.safeParse(nonEmpty);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if (Boolean(e.CLAWDIE_JAIL_URL) !== Boolean(e.CLAWDIE_JAIL_TOKEN)) {
    throw new ConfigError(
      'CLAWDIE_JAIL_URL and CLAWDIE_JAIL_TOKEN (or CLAWDIE_JAIL_TOKEN_FILE) must be set together',
    );
  }
  if (Boolean(e.CLAWDIE_HOSTD_URL) !== Boolean(e.CLAWDIE_HOSTD_TOKEN)) {
    throw new ConfigError(
      'CLAWDIE_HOSTD_URL and CLAWDIE_HOSTD_TOKEN (or CLAWDIE_HOSTD_TOKEN_FILE) must be set together',
    );
  }
  if (e.CLAWDIE_FLEET === 'on' && (e.CLAWDIE_HOSTD_URL || e.CLAWDIE_JAIL_URL)) {
    throw new ConfigError(
      'CLAWDIE_FLEET=on places tasks on the registered jail hosts: unset CLAWDIE_HOSTD_URL and CLAWDIE_JAIL_URL (register that hostd with clawdie hosts add)',
    );
  }
  const dataDir = resolve(cwd, e.CLAWDIE_DATA_DIR);
  return Object.freeze({
    host: e.CLAWDIE_HOST,
    port: e.CLAWDIE_PORT,
    maxBodyBytes: e.CLAWDIE_MAX_BODY_BYTES,
    takeover: {
      publicUrl: e.CLAWDIE_PUBLIC_URL ?? null,
      linkTtlMs: e.CLAWDIE_TAKEOVER_LINK_TTL_S * 1000,
    },
    dataDir,
    databasePath: resolve(dataDir, 'clawdie.db'),
    databaseUrl: e.CLAWDIE_DATABASE_URL ?? null,
    replicaUrl: e.CLAWDIE_REPLICA_URL?.replace(/\/+$/, '') ?? null,
    replicas: {
      heartbeatMs: e.CLAWDIE_REPLICA_HEARTBEAT_MS,
      timeoutMs: e.CLAWDIE_REPLICA_TIMEOUT_MS,
    },
    logLevel: e.CLAWDIE_LOG_LEVEL,
    imageEncoder: e.CLAWDIE_IMAGE_ENCODER,
    model: modelConfig(e, cwd),
    judge: judgeConfig(e),
    loop: {
      actionSpace: e.CLAWDIE_ACTION_SPACE,
      maxSteps: e.CLAWDIE_MAX_STEPS,
      maxParseFailures: e.CLAWDIE_MAX_PARSE_FAILURES,
      waitMs: e.CLAWDIE_WAIT_MS,
      scrollAmount: e.CLAWDIE_SCROLL_AMOUNT,
      smartWait: e.CLAWDIE_SMART_WAIT === 'true' || e.CLAWDIE_SMART_WAIT === '1',
      guard: {
        stuckAfterMs: e.CLAWDIE_STUCK_AFTER_S * 1000,
        repeatStopAt: e.CLAWDIE_LOOP_REPEAT_LIMIT,
        onStop: e.CLAWDIE_LOOP_STOP,
      },
    },
    jail:
      e.CLAWDIE_JAIL_URL && e.CLAWDIE_JAIL_TOKEN
        ? { url: e.CLAWDIE_JAIL_URL, token: e.CLAWDIE_JAIL_TOKEN }
        : null,
    hostd:
      e.CLAWDIE_HOSTD_URL && e.CLAWDIE_HOSTD_TOKEN
        ? {
            url: e.CLAWDIE_HOSTD_URL,
            token: e.CLAWDIE_HOSTD_TOKEN,
            concurrency: e.CLAWDIE_HOSTD_CONCURRENCY,
          }
        : null,
    embeddedHostd: {
      enabled:
        e.CLAWDIE_HOSTD === 'auto' &&
        !e.CLAWDIE_HOSTD_URL &&
        !e.CLAWDIE_JAIL_URL &&
        e.CLAWDIE_FLEET !== 'on',
      concurrency: e.CLAWDIE_HOSTD_CONCURRENCY,
    },
    localBrowser: { uid: e.CLAWDIE_LOCAL_BROWSER_UID },
    fleet: {
      enabled: e.CLAWDIE_FLEET === 'on',
      heartbeatMs: e.CLAWDIE_FLEET_HEARTBEAT_MS,
      staleMs: e.CLAWDIE_FLEET_STALE_MS,
    },
    egressAllowInternal: e.CLAWDIE_EGRESS_ALLOW_INTERNAL ?? [],
    adminToken: e.CLAWDIE_ADMIN_TOKEN ?? null,
    auth: {
      jwksFile: resolve(cwd, e.CLAWDIE_AUTH_JWKS_FILE ?? resolve(dataDir, 'auth', 'jwks.json')),
      required: e.CLAWDIE_AUTH_REQUIRED === 'true' || e.CLAWDIE_AUTH_REQUIRED === '1',
      issuer: e.CLAWDIE_AUTH_ISSUER,
      audience: e.CLAWDIE_AUTH_AUDIENCE,
    },
    authFailures: {
      limit: e.CLAWDIE_AUTH_FAILURE_LIMIT,
      windowMs: e.CLAWDIE_AUTH_FAILURE_WINDOW_S * 1000,
    },
    trustedProxies: e.CLAWDIE_TRUSTED_PROXIES ?? [],
    auditKeyFile: resolve(cwd, e.CLAWDIE_AUDIT_KEY_FILE ?? resolve(dataDir, 'keys', 'audit.key')),
    policyDir: e.CLAWDIE_POLICY_DIR ? resolve(cwd, e.CLAWDIE_POLICY_DIR) : shippedPolicies,
    secretsKeyFile: resolve(cwd, e.CLAWDIE_SECRETS_KEY_FILE ?? resolve(dataDir, 'secrets.key')),
    sessionTtlS: e.CLAWDIE_SESSION_TTL_S,
    telegram: telegramConfig(e),
  });
}

function telegramConfig(e: z.infer<typeof schema>): Config['telegram'] {
  if (!e.CLAWDIE_TELEGRAM_BOT_TOKEN) return null;
  if (!e.CLAWDIE_TELEGRAM_CHAT_IDS?.length || !e.CLAWDIE_TELEGRAM_ALLOWED_USER_IDS?.length) {
    throw new ConfigError(
      'CLAWDIE_TELEGRAM_BOT_TOKEN needs CLAWDIE_TELEGRAM_CHAT_IDS (where requests go) and CLAWDIE_TELEGRAM_ALLOWED_USER_IDS (who may answer)',
    );
  }
  return {
    token: e.CLAWDIE_TELEGRAM_BOT_TOKEN,
    chatIds: e.CLAWDIE_TELEGRAM_CHAT_IDS,
    allowedUserIds: e.CLAWDIE_TELEGRAM_ALLOWED_USER_IDS,
    apiRoot: e.CLAWDIE_TELEGRAM_API_ROOT,
  };
}

/** A copy of the process environment: the one sanctioned way for entry points to read it. */
export function processEnv(): Record<string, string | undefined> {
  return { ...process.env };
}

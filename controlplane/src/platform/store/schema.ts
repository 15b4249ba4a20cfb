import {
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/sqlite-core';

/** One `browser_run_task` call. `id` is the trace id returned to callers. */
export const tasks = sqliteTable(
  'tasks',
  {
    id: text('id').primaryKey(),
    instruction: text('instruction').notNull(),
    startUrl: text('start_url'),
    status: text('status').notNull(),
    summary: text('summary'),
    resultData: text('result_data'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    stepCount: integer('step_count').notNull().default(0),
    maxSteps: integer('max_steps').notNull(),
    modelName: text('model_name').notNull(),
    coordinateMode: text('coordinate_mode').notNull(),
    finalScreenshotPath: text('final_screenshot_path'),
    createdAt: integer('created_at').notNull(),
    startedAt: integer('started_at'),
    endedAt: integer('ended_at'),
    /** The tenant whose token started the task; non-admin readers see only their own. */
    tenant: text('tenant').notNull().default('default'),
    /** Who started it (`tenant:<t>/<subject>`); null outside a request (CLI without a caller). */
    actor: text('actor'),
    /** The controlplane instance (`instances.id`) that runs it; null for rows from older versions. */
    ownerInstance: text('owner_instance'),
    /** JSON: the task's model usage totals and cost (tasks/task-usage.ts), null before a call. */
    usage: text('usage'),
    /** JSON: the verdict of a finished task against its network evidence; null for the others. */
    verification: text('verification'),
  },
  (table) => [
    index('tasks_created_at').on(table.createdAt),
    index('tasks_tenant_created_at').on(table.tenant, table.createdAt),
  ],
);

/** One loop iteration: screenshot → model → actions. */
export const steps = sqliteTable(
  'steps',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    index: integer('step_index').notNull(),
    thought: text('thought'),
    reflection: text('reflection'),
    rawPrediction: text('raw_prediction'),
    outcome: text('outcome').notNull(),
    outcomeMessage: text('outcome_message'),
    screenshotPath: text('screenshot_path'),
    imageWidth: integer('image_width'),
    imageHeight: integer('image_height'),
    devicePixelRatio: real('device_pixel_ratio'),
    captureMs: real('capture_ms'),
    modelMs: real('model_ms'),
    executeMs: real('execute_ms'),
    modelRequestBytes: integer('model_request_bytes'),
    /** JSON: the step's model call — tokens, images, latency split (agent/model/call-usage.ts). */
    modelUsage: text('model_usage'),
    /** JSON: the requests the step's actions caused (method, URL, status, timing, bytes). */
    network: text('network'),
    startedAt: integer('started_at').notNull(),
    endedAt: integer('ended_at'),
  },
  (table) => [uniqueIndex('steps_task_index').on(table.taskId, table.index)],
);

/** One executed (or skipped) action of a step. */
export const actions = sqliteTable(
  'actions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    stepId: integer('step_id')
      .notNull()
      .references(() => steps.id, { onDelete: 'cascade' }),
    taskId: text('task_id').notNull(),
    index: integer('action_index').notNull(),
    type: text('type').notNull(),
    modelAction: text('model_action').notNull(),
    action: text('action'),
    screenX: real('screen_x'),
    screenY: real('screen_y'),
    cssX: real('css_x'),
    cssY: real('css_y'),
    status: text('status').notNull(),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    durationMs: real('duration_ms'),
    navigated: integer('navigated', { mode: 'boolean' }).notNull().default(false),
  },
  (table) => [index('actions_step').on(table.stepId)],
);

/** Structured log lines of a task, optionally tied to a step. */
export const logs = sqliteTable(
  'logs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    stepId: integer('step_id'),
    at: integer('at').notNull(),
    level: text('level').notNull(),
    event: text('event').notNull(),
    message: text('message').notNull(),
    data: text('data'),
  },
  (table) => [index('logs_task').on(table.taskId), index('logs_step').on(table.stepId)],
);

/**
 * A task's numbered stream events (status, step, stuck, result; tasks/task-events.ts), `seq` 1, 2,
 * … without gaps, written in the task's order: what an SSE follower on any replica replays after
 * its Last-Event-ID. Deleted with the task.
 */
export const taskEvents = sqliteTable(
  'task_events',
  {
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    type: text('type').notNull(),
    /** JSON: the event's data, as sent. */
    data: text('data').notNull(),
    at: integer('at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.taskId, table.seq] })],
);

/**
 * The tamper-evident audit log: append-only (triggers refuse UPDATE and DELETE), each row carries
 * the hash of its predecessor (see controlplane/src/governance/audit/hash-chain.ts). `seq` starts at 1 and
 * has no gaps, so a deleted row shows as a gap and a broken link.
 */
export const auditEvents = sqliteTable('audit_events', {
  seq: integer('seq').primaryKey(),
  at: integer('at').notNull(),
  type: text('type').notNull(),
  actor: text('actor').notNull(),
  taskId: text('task_id'),
  data: text('data').notNull(),
  prevHash: text('prev_hash').notNull(),
  hash: text('hash').notNull(),
});

/** Supervisor approvals: pending until answered (Telegram or API) or expired (= denied). */
export const approvals = sqliteTable(
  'approvals',
  {
    id: text('id').primaryKey(),
    taskId: text('task_id'),
    tenant: text('tenant').notNull(),
    kind: text('kind').notNull(),
    reason: text('reason').notNull(),
    detail: text('detail').notNull(),
    status: text('status').notNull(),
    requestedAt: integer('requested_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    answeredAt: integer('answered_at'),
    answeredBy: text('answered_by'),
  },
  (table) => [index('approvals_status').on(table.status)],
);

/** Secrets encrypted with AES-256-GCM; the key never enters the database. */
export const secrets = sqliteTable(
  'secrets',
  {
    name: text('name').notNull(),
    tenant: text('tenant').notNull(),
    ciphertext: text('ciphertext').notNull(),
    iv: text('iv').notNull(),
    tag: text('tag').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (table) => [uniqueIndex('secrets_tenant_name').on(table.tenant, table.name)],
);

/**
 * The controlplane processes using this database: each registers at start, refreshes
 * `heartbeat_at` every few seconds and deletes its row at a clean shutdown. Tasks whose owner is
 * gone (stale heartbeat, or a dead pid on this host) are the only ones marked INTERRUPTED.
 */
export const instances = sqliteTable('instances', {
  id: text('id').primaryKey(),
  /** `server` (npm start), `cli` (clawdie run/demo), `mcp` (clawdie mcp over stdio), `embedded`. */
  kind: text('kind').notNull(),
  pid: integer('pid').notNull(),
  hostname: text('hostname').notNull(),
  /** Where a server listens (REST /v1, MCP /mcp); null until it listens, and for the others. */
  url: text('url'),
  startedAt: integer('started_at').notNull(),
  heartbeatAt: integer('heartbeat_at').notNull(),
});

/**
 * This store's identity: one row (`singleton` = 1) holding a random id made the first time it is
 * asked for. A controlplane names it with its instance id on every hostd lease, so that another
 * store's controlplanes on the same hostd never take its clones for orphans. A backup's copy and a
 * restore drop it, so a restored copy is a store of its own.
 */
export const storeIdentity = sqliteTable('store_identity', {
  singleton: integer('singleton').primaryKey(),
  id: text('id').notNull(),
});

/**
 * Saved browser sessions (cookies + localStorage of some origins), sealed with the vault key:
 * only ciphertext, IV and tag hold values. One row per tenant and name; saving again replaces it.
 */
export const sessionProfiles = sqliteTable(
  'session_profiles',
  {
    tenant: text('tenant').notNull(),
    name: text('name').notNull(),
    /** JSON array of origins (`https://host[:port]`) the bundle was captured from. */
    origins: text('origins').notNull(),
    cookieCount: integer('cookie_count').notNull(),
    ciphertext: text('ciphertext').notNull(),
    iv: text('iv').notNull(),
    tag: text('tag').notNull(),
    /** The task whose clone it was saved from, when there is one. */
    sourceTask: text('source_task'),
    createdBy: text('created_by').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    revokedAt: integer('revoked_at'),
  },
  (table) => [uniqueIndex('session_profiles_tenant_name').on(table.tenant, table.name)],
);

/**
 * The jail hosts (hostd instances) tasks may be placed on, registered by `clawdie hosts add`.
 * The token the controlplane presents to the host's hostd is sealed with the vault key (only
 * ciphertext, IV and tag are stored). `heartbeat_at` is the last time a controlplane reached it.
 */
export const hosts = sqliteTable('hosts', {
  name: text('name').primaryKey(),
  url: text('url').notNull(),
  /** JSON object of string labels: `os`, `display` (`yes`/`no`), `region`, and any others. */
  labels: text('labels').notNull(),
  /** Clones the host may hold at once. */
  capacity: integer('capacity').notNull(),
  /** `active` (takes new tasks) or `draining` (keeps its tasks, takes no new one). */
  state: text('state').notNull(),
  tokenCiphertext: text('token_ciphertext').notNull(),
  tokenIv: text('token_iv').notNull(),
  tokenTag: text('token_tag').notNull(),
  addedAt: integer('added_at').notNull(),
  heartbeatAt: integer('heartbeat_at'),
  /** Clones the host reported at its last heartbeat. */
  clones: integer('clones').notNull().default(0),
  /** Why the last heartbeat attempt failed; null after a good one. */
  lastError: text('last_error'),
});

/**
 * Dashboard admin logins shared by replicas (PostgreSQL; one process keeps them in memory). Only
 * the SHA-256 of the cookie's random id is stored, so reading the table cannot hijack a session.
 */
export const dashboardSessions = sqliteTable('dashboard_sessions', {
  idHash: text('id_hash').primaryKey(),
  expiresAt: integer('expires_at').notNull(),
  createdAt: integer('created_at').notNull(),
});

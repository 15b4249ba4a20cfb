// The PostgreSQL mirror of ../schema.ts: the same tables, columns and indexes, so that a
// repository reads the same rows from either store. Milliseconds since the epoch are `bigint`
// read as numbers; JSON stays `text` (the adapters parse it, as on SQLite). A change to one
// schema is made to both, and each gets its generated migration (`npm run db:generate`).
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Milliseconds since the epoch (past 2^31, so `bigint`), read as a JS number. */
const ms = (name: string) => bigint(name, { mode: 'number' });
/** An id the database assigns, 64-bit like SQLite's `integer primary key autoincrement`. */
const serialId = () => bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity();

/** One `browser_run_task` call. `id` is the trace id returned to callers. */
export const tasks = pgTable(
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
    createdAt: ms('created_at').notNull(),
    startedAt: ms('started_at'),
    endedAt: ms('ended_at'),
    tenant: text('tenant').notNull().default('default'),
    actor: text('actor'),
    ownerInstance: text('owner_instance'),
    usage: text('usage'),
    verification: text('verification'),
  },
  (table) => [
    index('tasks_created_at').on(table.createdAt),
    index('tasks_tenant_created_at').on(table.tenant, table.createdAt),
  ],
);

/** One loop iteration: screenshot → model → actions. */
export const steps = pgTable(
  'steps',
  {
    id: serialId(),
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
    devicePixelRatio: doublePrecision('device_pixel_ratio'),
    captureMs: doublePrecision('capture_ms'),
    modelMs: doublePrecision('model_ms'),
    executeMs: doublePrecision('execute_ms'),
    modelRequestBytes: integer('model_request_bytes'),
    modelUsage: text('model_usage'),
    network: text('network'),
    startedAt: ms('started_at').notNull(),
    endedAt: ms('ended_at'),
  },
  (table) => [uniqueIndex('steps_task_index').on(table.taskId, table.index)],
);

/** One executed (or skipped) action of a step. */
export const actions = pgTable(
  'actions',
  {
    id: serialId(),
    stepId: bigint('step_id', { mode: 'number' })
      .notNull()
      .references(() => steps.id, { onDelete: 'cascade' }),
    taskId: text('task_id').notNull(),
    index: integer('action_index').notNull(),
    type: text('type').notNull(),
    modelAction: text('model_action').notNull(),
    action: text('action'),
    screenX: doublePrecision('screen_x'),
    screenY: doublePrecision('screen_y'),
    cssX: doublePrecision('css_x'),
    cssY: doublePrecision('css_y'),
    status: text('status').notNull(),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    durationMs: doublePrecision('duration_ms'),
    navigated: boolean('navigated').notNull().default(false),
  },
  (table) => [index('actions_step').on(table.stepId)],
);

/** Structured log lines of a task, optionally tied to a step. */
export const logs = pgTable(
  'logs',
  {
    id: serialId(),
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    stepId: bigint('step_id', { mode: 'number' }),
    at: ms('at').notNull(),
    level: text('level').notNull(),
    event: text('event').notNull(),
    message: text('message').notNull(),
    data: text('data'),
  },
  (table) => [index('logs_task').on(table.taskId), index('logs_step').on(table.stepId)],
);

/** A task's numbered stream events (see ../schema.ts); deleted with the task. */
export const taskEvents = pgTable(
  'task_events',
  {
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    type: text('type').notNull(),
    data: text('data').notNull(),
    at: ms('at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.taskId, table.seq] })],
);

/** The tamper-evident audit log: append-only (triggers refuse UPDATE, DELETE and TRUNCATE). */
export const auditEvents = pgTable('audit_events', {
  seq: bigint('seq', { mode: 'number' }).primaryKey(),
  at: ms('at').notNull(),
  type: text('type').notNull(),
  actor: text('actor').notNull(),
  taskId: text('task_id'),
  data: text('data').notNull(),
  prevHash: text('prev_hash').notNull(),
  hash: text('hash').notNull(),
});

/** Supervisor approvals: pending until answered (Telegram or API) or expired (= denied). */
export const approvals = pgTable(
  'approvals',
  {
    id: text('id').primaryKey(),
    taskId: text('task_id'),
    tenant: text('tenant').notNull(),
    kind: text('kind').notNull(),
    reason: text('reason').notNull(),
    detail: text('detail').notNull(),
    status: text('status').notNull(),
    requestedAt: ms('requested_at').notNull(),
    expiresAt: ms('expires_at').notNull(),
    answeredAt: ms('answered_at'),
    answeredBy: text('answered_by'),
  },
  (table) => [index('approvals_status').on(table.status)],
);

/** Secrets encrypted with AES-256-GCM; the key never enters the database. */
export const secrets = pgTable(
  'secrets',
  {
    name: text('name').notNull(),
    tenant: text('tenant').notNull(),
    ciphertext: text('ciphertext').notNull(),
    iv: text('iv').notNull(),
    tag: text('tag').notNull(),
    updatedAt: ms('updated_at').notNull(),
  },
  (table) => [uniqueIndex('secrets_tenant_name').on(table.tenant, table.name)],
);

/** The controlplane processes using this database (see ../schema.ts). */
export const instances = pgTable('instances', {
  id: text('id').primaryKey(),
  kind: text('kind').notNull(),
  pid: integer('pid').notNull(),
  hostname: text('hostname').notNull(),
  url: text('url'),
  startedAt: ms('started_at').notNull(),
  heartbeatAt: ms('heartbeat_at').notNull(),
});

/** This store's identity, shared by every replica: one row, a random id made when first asked. */
export const storeIdentity = pgTable('store_identity', {
  singleton: integer('singleton').primaryKey(),
  id: text('id').notNull(),
});

/** Saved browser sessions, sealed with the vault key; one row per tenant and name. */
export const sessionProfiles = pgTable(
  'session_profiles',
  {
    tenant: text('tenant').notNull(),
    name: text('name').notNull(),
    origins: text('origins').notNull(),
    cookieCount: integer('cookie_count').notNull(),
    ciphertext: text('ciphertext').notNull(),
    iv: text('iv').notNull(),
    tag: text('tag').notNull(),
    sourceTask: text('source_task'),
    createdBy: text('created_by').notNull(),
    createdAt: ms('created_at').notNull(),
    expiresAt: ms('expires_at').notNull(),
    revokedAt: ms('revoked_at'),
  },
  (table) => [uniqueIndex('session_profiles_tenant_name').on(table.tenant, table.name)],
);

/** The jail hosts tasks may be placed on (see ../schema.ts); the token is sealed. */
export const hosts = pgTable('hosts', {
  name: text('name').primaryKey(),
  url: text('url').notNull(),
  labels: text('labels').notNull(),
  capacity: integer('capacity').notNull(),
  state: text('state').notNull(),
  tokenCiphertext: text('token_ciphertext').notNull(),
  tokenIv: text('token_iv').notNull(),
  tokenTag: text('token_tag').notNull(),
  addedAt: ms('added_at').notNull(),
  heartbeatAt: ms('heartbeat_at'),
  clones: integer('clones').notNull().default(0),
  lastError: text('last_error'),
});

/** Dashboard admin logins shared by replicas: the SHA-256 of the cookie's id (see ../schema.ts). */
export const dashboardSessions = pgTable('dashboard_sessions', {
  idHash: text('id_hash').primaryKey(),
  expiresAt: ms('expires_at').notNull(),
  createdAt: ms('created_at').notNull(),
});

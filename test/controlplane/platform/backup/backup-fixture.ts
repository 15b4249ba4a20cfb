// A live server under load for the backup tests: the real composition root (role `server`) on a
// temporary data dir, `concurrency` fake browsers at once, a scripted model that takes a few
// milliseconds per reply, tasks of several steps (screenshots, step rows, audit rows), a saved
// session profile and a vault secret written the way the server and `clawdie secret set` do.
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import type { VisionModel } from '../../../../controlplane/src/agent/model/chat-types.js';
import { trackLeases } from '../../../../controlplane/src/browser/provider/task-browsers.js';
import { createSessionProfileService } from '../../../../controlplane/src/browser/sessions/session-profile-service.js';
import { systemClock } from '../../../../controlplane/src/clock.js';
import {
  createSecretVault,
  loadVaultKey,
} from '../../../../controlplane/src/governance/credentials/secret-vault.js';
import type { Db } from '../../../../controlplane/src/platform/store/database.js';
import * as schema from '../../../../controlplane/src/platform/store/schema.js';
import { createSecretRepository } from '../../../../controlplane/src/platform/store/secret-repository.js';
import { createSessionProfileRepository } from '../../../../controlplane/src/platform/store/session-profile-repository.js';
import type { StartedTask } from '../../../../controlplane/src/tasks/task-service.js';
import {
  createTestControlplane,
  operatorBrowserSource,
  type TestControlplane,
} from '../../../support/controlplane.js';
import { createFakeOperator } from '../../../support/fake-operator.js';
import { createFakeSessionTransfer } from '../../../support/fake-session-transfer.js';
import { createPerTaskScriptModel } from '../../../support/per-task-script-model.js';
import { submit } from '../../../support/submit-task.js';
import { bundle, origin, principalOf } from '../../browser/sessions/session-fixture.js';

export const SCRIPT = [
  "Action: click(start_box='(100,200)')",
  "Action: type(content='hello')",
  "Action: click(start_box='(300,400)')",
  "Action: scroll(start_box='(500,500)', direction='down')",
  'Action: finished(content="done")',
];

/** The script, each reply `replyMs` late: tasks overlap and stay running for a while. */
function slowScriptModel(replyMs: number): VisionModel {
  const inner = createPerTaskScriptModel(SCRIPT);
  return {
    ...inner,
    async complete(request, signal) {
      await delay(replyMs, undefined, { signal });
      return inner.complete(request, signal);
    },
  };
}

/** `concurrency` fake browsers at once, a fresh one per task (as hostd's clones). */
function poolSource(concurrency: number) {
  const base = operatorBrowserSource(createFakeOperator().operator);
  const tracked = trackLeases({
    concurrency,
    async acquire() {
      const operator = createFakeOperator({ viewport: { width: 640, height: 400 } }).operator;
      return { id: `fake-${randomUUID()}`, operator, service: null, release: async () => {} };
    },
  });
  return { ...base, ...tracked };
}

/** Another connection to a database file, as another process would open it. */
export function secondConnection(path: string): { db: Db; close(): void } {
  const sqlite = new Database(path);
  sqlite.pragma('busy_timeout = 5000');
  return { db: drizzle(sqlite, { schema }) as unknown as Db, close: () => sqlite.close() };
}

export interface LiveServer {
  controlplane: TestControlplane;
  /** Starts `count` tasks now. */
  start(count: number): Promise<StartedTask[]>;
  /** Ids of the tasks whose row has an end time now. */
  ended(): string[];
  /** Saves session profile `name` (tenant default) and vault secret `name`; returns the secret. */
  saveSessionAndSecret(name: string): Promise<string>;
  close(): Promise<void>;
}

export async function startLiveServer(
  options: { concurrency?: number; replyMs?: number; dataDir?: string } = {},
): Promise<LiveServer> {
  const controlplane = await createTestControlplane({
    role: 'server',
    ...(options.dataDir ? { env: { CLAWDIE_DATA_DIR: options.dataDir } } : {}),
    model: slowScriptModel(options.replyMs ?? 15),
    adapters: { browsers: async () => poolSource(options.concurrency ?? 4) },
  });
  const started: StartedTask[] = [];
  // A second connection, as another process (`clawdie secret set`) would write with.
  const connection = secondConnection(controlplane.config.databasePath);
  const { db } = connection;
  return {
    controlplane,
    async start(count) {
      const tasks = await Promise.all(
        Array.from({ length: count }, (_, index) =>
          submit(controlplane.tasks, { instruction: `backup load task ${index}`, max_steps: 8 }),
        ),
      );
      started.push(...tasks);
      return tasks;
    },
    ended() {
      return db.$client
        .prepare('SELECT id FROM tasks WHERE ended_at IS NOT NULL')
        .pluck()
        .all() as string[];
    },
    async saveSessionAndSecret(name) {
      const key = () => loadVaultKey(controlplane.config.secretsKeyFile, { create: true });
      const taskId = started[0]?.taskId ?? 'none';
      const sessions = createSessionProfileService({
        store: createSessionProfileRepository(db),
        key,
        audit: controlplane.audit,
        clock: systemClock,
        defaultTtlS: 3600,
        taskTenant: async () => 'default',
        transferOf: () => createFakeSessionTransfer(bundle),
      });
      await sessions.saveSessionFromTask(
        { taskId, name, origins: [origin] },
        principalOf('default'),
      );
      const secret = `secret-${randomUUID()}`;
      await createSecretVault(createSecretRepository(db), key()).put('default', name, secret);
      return secret;
    },
    async close() {
      await Promise.allSettled(started.map((task) => task.done));
      connection.close();
      await controlplane.close();
    },
  };
}

// A real controlplane app (task service, SQLite in memory, fake browser operator, scripted model)
// served over HTTP on 127.0.0.1, port 0, for the pi extension's unit and e2e tests.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAdaptorServer } from '@hono/node-server';
import { createApp } from '../../../controlplane/src/http/app.js';
import type { ModelReply, VisionModel } from '../../../controlplane/src/model/chat-types.js';
import { createReplayModel } from '../../../controlplane/src/model/replay-model.js';
import type { TaskRepository } from '../../../controlplane/src/store/task-repository.js';
import {
  createTaskService,
  type TaskService,
} from '../../../controlplane/src/tasks/task-service.js';
import { createUnavailableTaskService } from '../../../controlplane/src/tasks/unavailable-task-service.js';
import { silentLogger } from '../../support/silent-logger.js';
import { createTestTaskDeps } from '../../support/test-task-deps.js';

export interface TestControlplane {
  url: string;
  tasks: TaskService;
  repository: TaskRepository;
  /** The stored status of a task (`queued`, `running`, `finished`, `aborted`, …). */
  statusOf(traceId: string): string | undefined;
  /** Resolves once the task has `status`; rejects after `timeoutMs`. */
  waitForStatus(traceId: string, status: string, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export interface TestControlplaneOptions {
  /** The model the task loop talks to; omit for a controlplane with no model (503 on start). */
  model?: VisionModel;
  maxSteps?: number;
}

/** Starts the controlplane; call `close()` in `after`. */
export async function startTestControlplane(
  options: TestControlplaneOptions = {},
): Promise<TestControlplane> {
  // Without a model the store still serves reads; the placeholder model is never asked.
  const { deps, repository, close } = createTestTaskDeps({
    model: options.model ?? createReplayModel([]),
    loop: { maxSteps: options.maxSteps ?? 5, waitMs: 1 },
  });
  const tasks = options.model ? createTaskService(deps) : createUnavailableTaskService();
  const app = createApp({
    tasks,
    repository,
    logger: silentLogger,
    defaultMaxSteps: options.maxSteps ?? 5,
    describe: () => ({ model: { name: 'test', replay: true }, jail: { url: 'fake' } }),
  });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const statusOf = (traceId: string) => repository.getTask(traceId)?.status;
  return {
    url: `http://127.0.0.1:${port}`,
    tasks,
    repository,
    statusOf,
    async waitForStatus(traceId, status, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (statusOf(traceId) !== status) {
        if (Date.now() > deadline) {
          throw new Error(
            `task ${traceId} is ${statusOf(traceId)}, not ${status}, after ${timeoutMs} ms`,
          );
        }
        await sleep(10);
      }
    },
    async close() {
      await tasks.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      close();
    },
  };
}

/**
 * A scripted model that answers after `delayMs` (abortable), returning `replies` in order and
 * then repeating the last one forever: a task that keeps going until it is stopped.
 */
export function createPacedModel(replies: readonly string[], delayMs: number): VisionModel {
  let next = 0;
  return {
    name: 'paced',
    isReplay: true,
    async complete(_request, signal): Promise<ModelReply> {
      await sleep(delayMs, undefined, signal ? { signal } : {});
      const text = replies[Math.min(next, replies.length - 1)] ?? 'Action: wait()';
      next += 1;
      return { text, requestBytes: 0, usage: null };
    },
  };
}

/** A URL on 127.0.0.1 where nothing listens. */
export async function closedPortUrl(): Promise<string> {
  const server = createAdaptorServer({ fetch: () => new Response() }) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

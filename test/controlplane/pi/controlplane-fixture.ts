// The controlplane (the composition root with a fake browser operator and a scripted model, SQLite
// in a temp data dir) served over HTTP on 127.0.0.1, port 0, for the pi extension's tests.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAdaptorServer } from '@hono/node-server';
import type { ModelReply, VisionModel } from '../../../controlplane/src/agent/model/chat-types.js';
import type { TaskRepository } from '../../../controlplane/src/platform/store/task-repository.js';
import type { TaskService } from '../../../controlplane/src/tasks/task-service.js';
import { createTestControlplane } from '../../support/controlplane.js';

export interface TestControlplane {
  url: string;
  tasks: TaskService;
  repository: TaskRepository;
  /** The stored status of a task (`queued`, `running`, `finished`, `aborted`, …). */
  statusOf(traceId: string): Promise<string | undefined>;
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
  const controlplane = await createTestControlplane({
    env: { CLAWDIE_MAX_STEPS: String(options.maxSteps ?? 5), CLAWDIE_WAIT_MS: '1' },
    ...(options.model ? { model: options.model } : {}),
  });
  const { tasks, repository } = controlplane;
  const url = await controlplane.serve();
  const statusOf = async (traceId: string) => (await repository.getTask(traceId))?.status;
  return {
    url,
    tasks,
    repository,
    statusOf,
    async waitForStatus(traceId, status, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while ((await statusOf(traceId)) !== status) {
        if (Date.now() > deadline) {
          throw new Error(
            `task ${traceId} is ${await statusOf(traceId)}, not ${status}, after ${timeoutMs} ms`,
          );
        }
        await sleep(10);
      }
    },
    close: controlplane.close,
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

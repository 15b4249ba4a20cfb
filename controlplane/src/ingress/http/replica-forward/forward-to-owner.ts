// The sending side of replica forwarding: a task-scoped route that needs what only the replica
// running the task holds (its browser's feed, its takeover, its data dir's files) proxies the
// request, already authorized here, to that replica's URL from the instances table, streaming
// the answer back. A forwarded request is never forwarded again.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Context, MiddlewareHandler, Next } from 'hono';
import type { Logger } from 'pino';
import { type Principal, visibleTenant } from '../../../governance/auth/scopes.js';
import type { InstanceRecord } from '../../../platform/store/instance-repository.js';
import { type TaskRecord, terminalStatuses } from '../../../platform/store/task-records.js';
import type { TaskRepository } from '../../../platform/store/task-repository.js';
import type { LocateKeptSession } from '../../../tasks/kept-session-place.js';
import { ReplicaGoneError, ReplicaUnreachableError } from '../../../tasks/replica-errors.js';
import { clientAddress } from '../client-address.js';
import { targetOf } from './accept-forwarded.js';
import { FORWARD_HEADER_PREFIX, signForward } from './forward-signature.js';

/**
 * When the owner is another live replica every mode forwards; when it is gone: `page` is answered
 * here from the store, `owner` (a live feed, a takeover) says REPLICA_GONE while the task is
 * unended, `files` says REPLICA_GONE unless the task's files are readable here. `session`: a
 * task start whose body names a kept browser (`session_id`) goes to the live replica holding it;
 * otherwise the route answers (the task service says where the session was).
 */
export type ForwardMode = 'page' | 'owner' | 'files' | 'session';

/** The authorized caller a route passes on (null: the route has its own auth, e.g. takeover). */
export type PrincipalOf = (c: Context) => Principal | null;

/** Builds the forwarding middleware of one route (`mode`, whose caller `principalOf` names). */
export type ReplicaForward = (mode: ForwardMode, principalOf: PrincipalOf) => MiddlewareHandler;

export interface ReplicaForwardDeps {
  /** This replica's instance id. */
  self: string;
  key: Buffer;
  repository: Pick<TaskRepository, 'getTask' | 'getStep'>;
  /** The live instances with their URLs (`DataDirOwner.live`): the only places forwarded to. */
  live: () => Promise<InstanceRecord[]>;
  /** Where kept browsers are (mode `session`). */
  locate: LocateKeptSession;
  now: () => number;
  logger: Logger;
  fetch?: typeof fetch;
}

/** What a task id looks like; anything else is left to the route (a 404 there). */
const taskIdPattern = /^[A-Za-z0-9_-]{1,64}$/;
const dropRequest = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'te']);
const dropResponse = new Set(['connection', 'keep-alive', 'transfer-encoding', 'set-cookie']);
for (const name of ['authorization', 'content-length', 'upgrade', 'accept-encoding'])
  dropRequest.add(name);

/** The `session_id` of a JSON body, else null (the route then answers a bad body itself). */
async function sessionIdOf(c: Context): Promise<string | null> {
  try {
    const body: unknown = JSON.parse(new TextDecoder().decode(await c.req.arrayBuffer()));
    const id = (body as { session_id?: unknown } | null)?.session_id;
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

/** Where the task's trace files are (a stored screenshot's directory), null when none is stored. */
async function traceDir(deps: ReplicaForwardDeps, task: TaskRecord): Promise<string | null> {
  const path =
    task.finalScreenshotPath ?? (await deps.repository.getStep(task.id, 1))?.screenshotPath;
  return path ? dirname(path) : null;
}

export function createReplicaForward(deps: ReplicaForwardDeps): ReplicaForward {
  const logger = deps.logger.child({ module: 'replica-forward' });
  const send = deps.fetch ?? fetch;

  async function proxy(
    c: Context,
    task: TaskRecord,
    owner: InstanceRecord,
    principal: Principal | null,
  ) {
    if (!owner.url || !/^https?:\/\//.test(owner.url))
      throw new ReplicaUnreachableError(task.id, owner.id, null);
    const target = targetOf(c.req.url);
    const method = c.req.method;
    const body =
      method === 'GET' || method === 'HEAD' ? null : new Uint8Array(await c.req.arrayBuffer());
    const headers = new Headers();
    c.req.raw.headers.forEach((value, name) => {
      if (!dropRequest.has(name) && !name.startsWith(FORWARD_HEADER_PREFIX))
        headers.set(name, value);
    });
    headers.set('accept-encoding', 'identity');
    const claims = {
      from: deps.self,
      to: owner.id,
      at: deps.now(),
      principal,
      client: clientAddress(c),
    };
    for (const [name, value] of Object.entries(
      signForward(deps.key, { method, target, body }, claims),
    ))
      headers.set(name, value);
    const url = `${new URL(owner.url).origin}${target}`;
    let upstream: Response;
    try {
      upstream = await send(url, {
        method,
        headers,
        body,
        redirect: 'manual',
        signal: c.req.raw.signal,
      });
    } catch (error) {
      logger.warn({ err: error, taskId: task.id, replica: owner.id, url }, 'forward failed');
      throw new ReplicaUnreachableError(task.id, owner.id, owner.url, error);
    }
    logger.debug(
      { taskId: task.id, replica: owner.id, method, status: upstream.status },
      'forwarded',
    );
    const answer = new Headers();
    upstream.headers.forEach((value, name) => {
      if (!dropResponse.has(name)) answer.set(name, value);
    });
    for (const cookie of upstream.headers.getSetCookie()) answer.append('set-cookie', cookie);
    return new Response(upstream.body, { status: upstream.status, headers: answer });
  }

  /** A task start with a `session_id` held by another live replica that serves HTTP goes there. */
  async function toSessionHolder(c: Context, next: Next, principal: Principal | null) {
    const sessionId = await sessionIdOf(c);
    if (!sessionId || !principal) return next();
    const place = await deps.locate(sessionId, principal.tenant);
    if (place.where !== 'elsewhere' || !place.instance.url) return next();
    return proxy(c, place.task, place.instance, principal);
  }

  return (mode, principalOf) =>
    async function forwardToOwner(c, next) {
      // A forwarded request is handled here or refused by the route: never sent on (no loops).
      if (c.get('forwarded')) return next();
      if (mode === 'session') return toSessionHolder(c, next, principalOf(c));
      const id = c.req.param('id') ?? '';
      if (!taskIdPattern.test(id)) return next();
      const principal = principalOf(c);
      const task = await deps.repository.getTask(
        id,
        principal ? visibleTenant(principal) : undefined,
      );
      if (!task?.ownerInstance || task.ownerInstance === deps.self) return next();
      const owner = (await deps.live()).find((instance) => instance.id === task.ownerInstance);
      // A live owner that serves no HTTP (`clawdie run`, not listening yet): pages are read here.
      if (owner && (owner.url || mode !== 'page')) return proxy(c, task, owner, principal);
      if (owner || mode === 'page' || principal === null) return next();
      if (mode === 'owner') {
        if (terminalStatuses.includes(task.status)) return next();
        throw new ReplicaGoneError(task.id, task.ownerInstance);
      }
      const dir = await traceDir(deps, task);
      if (dir === null || existsSync(dir)) return next();
      throw new ReplicaGoneError(task.id, task.ownerInstance, dir);
    };
}

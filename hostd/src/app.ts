// hostd's HTTP API (never listens; main.ts does): bearer-token auth, zod-validated input, one
// error mapper. Routes: GET /health, POST/GET /clones, GET/DELETE /clones/:name,
// GET /clones/:name/egress-refusals[/stream], POST /leases/revoke-all, POST /leases/revoke (by
// holder), and the relay to a clone's
// jail-service, ALL /clones/:name/leases/:leaseId/service/* (relay/service-relay.ts). Every
// /clones/:name route acts only under the clone's current lease, sent in the `clawdie-lease`
// header (the relay: in its path).
import { requireBearer } from '@clawdie/kit/auth';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { z } from 'zod';
import {
  CreateCloneRequestSchema,
  type Health,
  LEASE_HEADER,
  type RevokeAllResponse,
  RevokeLeasesRequestSchema,
} from './api/schema.js';
import type { CloneManager } from './clones/clone-manager.js';
import type { LeaseRecord } from './clones/lease-registry.js';
import { streamLeaseRefusals } from './clones/refusal-stream.js';
import type { JailDriver } from './drivers/jail-driver.js';
import { JailDriverError } from './drivers/jail-driver.js';
import { HostdError } from './errors.js';
import { isRelayPath, relayToService } from './relay/service-relay.js';

export interface AppDeps {
  token: string;
  manager: CloneManager;
  driver: JailDriver;
  /** Must not throw. */
  logError?: (message: string, error: unknown) => void;
}

/**
 * Bound on a request body (a clone request is a few hundred bytes). The relay to a clone's
 * jail-service has its own, MAX_RELAY_BODY_BYTES (uploads).
 */
export const MAX_BODY_BYTES = 64 * 1024;

export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  app.use(
    '*',
    requireBearer({
      token: deps.token,
      refuse: (c) =>
        c.json({ error: { code: 'UNAUTHORIZED', message: 'bearer token required' } }, 401),
    }),
  );
  const smallBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) =>
      c.json(
        {
          error: {
            code: 'BODY_TOO_LARGE',
            message: `request body is larger than ${MAX_BODY_BYTES} bytes`,
          },
        },
        413,
        { connection: 'close' },
      ),
  });
  app.use('*', (c, next) => (isRelayPath(c.req.path) ? next() : smallBody(c, next)));

  app.get('/health', async (c) => {
    const body: Health = {
      ok: true,
      driver: deps.driver.kind,
      isolation: await deps.driver.probe().then((isolation) => ({
        level: isolation.level,
        reasons: [...isolation.reasons],
      })),
      pool: deps.manager.poolStatus(),
      clones: deps.manager.leaseCount(),
    };
    return c.json(body);
  });

  app.post('/clones', async (c) => {
    const body = parse(CreateCloneRequestSchema, await c.req.json().catch(() => undefined));
    return c.json(await deps.manager.create(body), 201);
  });

  app.get('/clones', async (c) => {
    const taskId = c.req.query('taskId');
    const clones = await deps.manager.list();
    return c.json({ clones: taskId ? clones.filter((clone) => clone.taskId === taskId) : clones });
  });

  app.get('/clones/:name', async (c) =>
    c.json(await deps.manager.get(c.req.param('name'), c.req.header(LEASE_HEADER))),
  );

  app.delete('/clones/:name', async (c) => {
    const result = await deps.manager.destroy(c.req.param('name'), c.req.header(LEASE_HEADER));
    return c.json({ name: result.name, destroyed: true, leftovers: [...result.leftovers] });
  });

  app.get('/clones/:name/egress-refusals', (c) => {
    const after = Number(c.req.query('after') ?? 0) || 0;
    const lease = c.req.header(LEASE_HEADER);
    return c.json({ refusals: deps.manager.refusalsOf(c.req.param('name'), lease, after) });
  });

  app.get('/clones/:name/egress-refusals/stream', (c) => {
    const lease = deps.manager.leases.check(c.req.param('name'), c.req.header(LEASE_HEADER));
    const after = Number(c.req.query('after') ?? c.req.header('last-event-id') ?? 0) || 0;
    return streamLeaseRefusals(c, deps.manager.refusals, lease, after);
  });

  app.all('/clones/:name/leases/:leaseId/service/*', (c) =>
    relayToService(c.req.raw, deps.manager.serviceOf(c.req.param('name'), c.req.param('leaseId'))),
  );

  app.post('/leases/revoke-all', async (c) => c.json(revokedBody(await deps.manager.revoke())));

  app.post('/leases/revoke', async (c) => {
    const body = parse(RevokeLeasesRequestSchema, await c.req.json().catch(() => undefined));
    const holders = new Set(body.holders);
    const revoked = await deps.manager.revoke((lease) =>
      lease.holder === null ? body.unnamed : holders.has(lease.holder),
    );
    return c.json(revokedBody(revoked));
  });

  app.onError((error, c) => {
    if (error instanceof HTTPException) return error.getResponse();
    if (error instanceof HostdError) {
      // A relayed body over its bound: the rest of it is not read, so the connection cannot stay.
      const close = error.status === 413 ? { connection: 'close' } : undefined;
      return c.json(
        { error: { code: error.code, message: error.message } },
        error.status as 400,
        close,
      );
    }
    if (error instanceof JailDriverError) {
      const status = error.code === 'CLONE_NOT_FOUND' ? 404 : 503;
      // A failed create/start: its message names the logs kept on the host (task-logs.ts).
      if (status === 503) deps.logError?.(`clone ${error.cloneName ?? ''} failed`, error);
      return c.json({ error: { code: error.code, message: error.message } }, status);
    }
    deps.logError?.('unhandled error', error);
    return c.json({ error: { code: 'INTERNAL', message: 'internal error' } }, 500);
  });
  return app;
}

function revokedBody(
  revoked: readonly { lease: LeaseRecord; leftovers: string[] }[],
): RevokeAllResponse {
  return {
    revoked: revoked.map(({ lease, leftovers }) => ({
      name: lease.name,
      taskId: lease.taskId,
      holder: lease.holder,
      generation: lease.generation,
      leftovers,
    })),
  };
}

function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const message = result.error.issues
      .map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`)
      .join('; ');
    throw new HTTPException(400, {
      res: Response.json({ error: { code: 'BAD_REQUEST', message } }, { status: 400 }),
    });
  }
  return result.data;
}

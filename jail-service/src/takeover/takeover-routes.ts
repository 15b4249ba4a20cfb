// `POST /input` and `GET /signals`, mounted by app.ts behind its bearer check. Bodies are never
// logged: they carry what a supervisor types.

import { inputRequestSchema, signalsQuerySchema } from '@clawdie/kit/jail-api';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { parseRequest } from '../error-handler.js';
import { BadRequestError } from '../errors.js';
import type { TakeoverPage } from './takeover-port.js';

const MAX_INPUT_BYTES = 256 * 1024;

export function createTakeoverRoutes(takeover: TakeoverPage): Hono {
  const app = new Hono();
  let bursts: Promise<unknown> = Promise.resolve();
  app.get('/signals', async (c) => {
    const query = parseRequest(signalsQuerySchema, c.req.query(), 'query');
    const known = (query.known_origins ?? '').split(',').filter(Boolean);
    return c.json(await takeover.signals(known));
  });
  const limit = bodyLimit({
    maxSize: MAX_INPUT_BYTES,
    onError: () => {
      throw new BadRequestError(
        `request body is larger than ${MAX_INPUT_BYTES} bytes`,
        undefined,
        413,
      );
    },
  });
  app.post('/input', limit, async (c) => {
    const body: unknown = await c.req.json().catch(() => {
      throw new BadRequestError('request body is not valid JSON');
    });
    // parseRequest reports paths and issue codes, not the values typed.
    const request = parseRequest(inputRequestSchema, body, 'input request');
    // One burst at a time, in arrival order: a burst whose caller timed out may still be running
    // when the next arrives, and interleaved bursts would put one field's keys into another.
    const signal = c.req.raw.signal;
    const report = bursts.then(() => takeover.input(request.events, signal));
    bursts = report.catch(() => undefined);
    return c.json(await report);
  });
  return app;
}

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
    return c.json(await takeover.input(request.events));
  });
  return app;
}

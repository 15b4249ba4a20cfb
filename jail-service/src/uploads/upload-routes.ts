// The upload routes (contract: kit/src/jail-api/uploads.ts `uploadRoutes`), mounted behind the
// app's bearer token: store a task's file by name, list files and choosers, decide a held chooser,
// delete them.
import {
  downloadNameSchema,
  MAX_UPLOAD_BYTES,
  type UploadList,
  uploadDecisionSchema,
} from '@clawdie/kit/jail-api';
import { Hono } from 'hono';
import { z } from 'zod';
import { parseRequest } from '../error-handler.js';
import { BadRequestError } from '../errors.js';
import type { UploadStore } from './upload-store.js';

const holdSchema = z.enum(['0', '1']).optional();
const seqSchema = z.coerce.number().int().min(1);

export function createUploadRoutes(store: UploadStore): Hono {
  const app = new Hono();

  app.put('/uploads/:name', async (c) => {
    const name = parseRequest(downloadNameSchema, c.req.param('name'), 'upload name');
    const length = Number(c.req.header('content-length') ?? Number.NaN);
    if (length > MAX_UPLOAD_BYTES)
      throw new BadRequestError(`upload is larger than ${MAX_UPLOAD_BYTES} bytes`, undefined, 413);
    const body = c.req.raw.body;
    if (!body) throw new BadRequestError('upload has no body');
    const hold = parseRequest(holdSchema, c.req.query('hold'), 'hold');
    return c.json(await store.add(name, body, MAX_UPLOAD_BYTES, { hold: hold === '1' }));
  });

  app.post('/uploads/choosers/:seq', async (c) => {
    const seq = parseRequest(seqSchema, c.req.param('seq'), 'chooser');
    const { decision } = parseRequest(
      uploadDecisionSchema,
      await c.req.json().catch(() => null),
      'decision',
    );
    await store.settled();
    return c.json(await store.decide(seq, decision), 200, { 'cache-control': 'no-store' });
  });

  app.get('/uploads', async (c) => {
    await store.settled();
    const body: UploadList = store.list();
    return c.json(body, 200, { 'cache-control': 'no-store' });
  });

  app.delete('/uploads', async (c) => {
    await store.clear();
    return c.json({ ok: true });
  });

  return app;
}

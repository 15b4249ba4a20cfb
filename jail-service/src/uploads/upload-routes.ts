// The upload routes (contract: kit/src/jail-api/uploads.ts `uploadRoutes`), mounted behind the
// app's bearer token: store a task's file by name, list files and choosers, delete them.
import { downloadNameSchema, MAX_UPLOAD_BYTES, type UploadList } from '@clawdie/kit/jail-api';
import { Hono } from 'hono';
import { parseRequest } from '../error-handler.js';
import { BadRequestError } from '../errors.js';
import type { UploadStore } from './upload-store.js';

export function createUploadRoutes(store: UploadStore): Hono {
  const app = new Hono();

  app.put('/uploads/:name', async (c) => {
    const name = parseRequest(downloadNameSchema, c.req.param('name'), 'upload name');
    const length = Number(c.req.header('content-length') ?? Number.NaN);
    if (length > MAX_UPLOAD_BYTES)
      throw new BadRequestError(`upload is larger than ${MAX_UPLOAD_BYTES} bytes`, undefined, 413);
    const body = c.req.raw.body;
    if (!body) throw new BadRequestError('upload has no body');
    return c.json(await store.add(name, body, MAX_UPLOAD_BYTES));
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

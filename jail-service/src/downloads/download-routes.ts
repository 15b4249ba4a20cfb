// The download routes (contract: kit/src/jail-api/downloads.ts `downloadRoutes`), mounted behind
// the app's bearer token: set a task's policy, list, stream one finished file, clear.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { type DownloadList, downloadPolicySchema } from '@clawdie/kit/jail-api';
import { Hono } from 'hono';
import { parseRequest } from '../error-handler.js';
import { BadRequestError, NotFoundError } from '../errors.js';
import type { DownloadStore } from './download-store.js';

export function createDownloadRoutes(store: DownloadStore): Hono {
  const app = new Hono();

  app.put('/downloads/policy', async (c) => {
    const body: unknown = await c.req.json().catch(() => {
      throw new BadRequestError('request body is not valid JSON');
    });
    await store.configure(parseRequest(downloadPolicySchema, body, 'download policy'));
    return c.json({ ok: true });
  });

  app.get('/downloads', (c) => {
    const body: DownloadList = { downloads: store.list() };
    return c.json(body, 200, { 'cache-control': 'no-store' });
  });

  app.get('/downloads/:id', (c) => {
    const found = store.file(c.req.param('id'));
    if (!found) throw new NotFoundError(`no completed download ${c.req.param('id')}`);
    const stream = Readable.toWeb(
      createReadStream(found.path, { highWaterMark: 1024 * 1024 }),
    ) as ReadableStream<Uint8Array>;
    return new Response(stream, {
      headers: {
        'content-type': 'application/octet-stream',
        'content-length': String(found.entry.bytes),
        'cache-control': 'no-store',
      },
    });
  });

  app.delete('/downloads', async (c) => {
    await store.clear();
    return c.json({ ok: true });
  });

  return app;
}

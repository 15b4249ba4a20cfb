// `/v1/tasks/:id/artifacts`: the files a task's browser downloaded (issue 23), listed and served
// under the same tenant check as every task route (another tenant's task is a 404).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { NotFoundError } from '../../errors.js';
import { type RouteEntry, route } from './route-types.js';
import { errors, requireTask, taskParams } from './task-routes.js';

export const artifactViewSchema = z.object({
  name: z.string(),
  bytes: z.number().int(),
  sha256: z.string(),
  mime: z.string().describe('sniffed from the bytes'),
  source_url: z.string(),
  step: z.number().int().describe('the step after which the download was seen'),
});
const artifactListSchema = z.object({ artifacts: z.array(artifactViewSchema) });

export const artifactRoutes: RouteEntry[] = [
  route({
    method: 'GET',
    path: '/v1/tasks/:id/artifacts',
    forward: 'files',
    access: 'tasks:read',
    summary: 'The files the task downloaded: name, size, SHA-256, sniffed type, source, step',
    params: taskParams,
    responses: { '200': { description: 'The artifacts', schema: artifactListSchema }, ...errors },
    handle: async (c, _input, deps) => {
      const task = await requireTask(c, deps);
      const stored = (await deps.artifacts?.list(task.id)) ?? [];
      const artifacts = stored.map(({ name, bytes, sha256, mime, source_url, step }) => ({
        name,
        bytes,
        sha256,
        mime,
        source_url,
        step,
      }));
      return c.json({ artifacts });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/tasks/:id/artifacts/:name',
    forward: 'files',
    access: 'tasks:read',
    summary: 'One downloaded file, as an attachment',
    params: taskParams.extend({ name: z.string().min(1) }),
    responses: {
      '200': { description: 'The file', contentType: 'application/octet-stream' },
      ...errors,
    },
    handle: async (c, { params }, deps) => {
      const task = await requireTask(c, deps);
      const { name } = params();
      const stored = (await deps.artifacts?.list(task.id)) ?? [];
      const artifact = stored.find((entry) => entry.name === name);
      if (!artifact) throw new NotFoundError(`task ${task.id} has no artifact ${name}`);
      await stat(artifact.path).catch(() => {
        throw new NotFoundError(`the file of artifact ${name} is missing`);
      });
      const stream = Readable.toWeb(createReadStream(artifact.path)) as ReadableStream<Uint8Array>;
      return new Response(stream, {
        headers: {
          'content-type': artifact.mime,
          'content-length': String(artifact.bytes),
          'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
          'x-content-type-options': 'nosniff',
          'cache-control': 'no-store',
        },
      });
    },
  }),
];

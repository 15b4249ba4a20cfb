import { z } from 'zod';
import { browserRunTaskFields, compactResultSchema } from '../tasks/task-input.js';

const errorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  }),
});

const json = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const body = (name: string) => ({ content: { 'application/json': { schema: ref(name) } } });
const errors = {
  '400': { description: 'Invalid request; the message names the field', ...body('Error') },
  '404': { description: 'No such task or step', ...body('Error') },
};
const idParam = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: 'trace_id',
};
const stepParam = {
  name: 'index',
  in: 'path',
  required: true,
  schema: { type: 'integer', minimum: 1 },
};

/** The OpenAPI 3.1 document of the REST API, generated from the same zod schemas the routes use. */
export function buildOpenApiDocument(version: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Clawdie controlplane',
      version,
      description: 'browser_run_task over REST, with step-level traces.',
    },
    paths: {
      '/v1/tasks': {
        post: {
          summary: 'Start a browser task; returns its trace_id at once',
          requestBody: { required: true, ...body('BrowserRunTaskInput') },
          responses: {
            '202': {
              description: 'Queued',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { trace_id: { type: 'string' }, status: { const: 'queued' } },
                  },
                },
              },
            },
            '503': { description: 'No model configured', ...body('Error') },
            ...errors,
          },
        },
        get: {
          summary: 'List tasks, newest first',
          parameters: [
            {
              name: 'limit',
              in: 'query',
              schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
            },
            { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
            {
              name: 'status',
              in: 'query',
              schema: {
                enum: [
                  'queued',
                  'running',
                  'finished',
                  'max_steps',
                  'error',
                  'aborted',
                  'call_user',
                ],
              },
            },
          ],
          responses: { '200': { description: 'A page of tasks' }, ...errors },
        },
      },
      '/v1/tasks/{id}': {
        get: {
          summary: 'Task, its steps and (once ended) the compact result',
          parameters: [idParam],
          responses: { '200': { description: 'The task' }, ...errors },
        },
      },
      '/v1/tasks/{id}/events': {
        get: {
          summary: 'Server-Sent Events: status, step, result; resumable with Last-Event-ID',
          parameters: [
            idParam,
            { name: 'Last-Event-ID', in: 'header', schema: { type: 'integer' } },
          ],
          responses: { '200': { description: 'text/event-stream' }, ...errors },
        },
      },
      '/v1/tasks/{id}/steps/{index}': {
        get: {
          summary: 'One step with its actions and logs',
          parameters: [idParam, stepParam],
          responses: { '200': { description: 'The step' }, ...errors },
        },
      },
      '/v1/tasks/{id}/steps/{index}/screenshot': {
        get: {
          summary: 'The JPEG the model saw at this step',
          parameters: [idParam, stepParam],
          responses: { '200': { description: 'image/jpeg' }, ...errors },
        },
      },
      '/v1/tasks/{id}/abort': {
        post: {
          summary: 'Abort a queued or running task',
          parameters: [idParam],
          responses: {
            '202': { description: 'Aborting' },
            '409': { description: 'Already ended', ...body('Error') },
            ...errors,
          },
        },
      },
    },
    components: {
      schemas: {
        BrowserRunTaskInput: json(z.strictObject(browserRunTaskFields)),
        CompactResult: json(compactResultSchema),
        Error: json(errorSchema),
      },
    },
  };
}

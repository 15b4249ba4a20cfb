import { z } from 'zod';
import {
  approvalAnswerSchema,
  approvalListQuerySchema,
  approvalViewSchema,
} from '../approvals/approval-schemas.js';
import { scopeForRequest } from '../auth/scopes.js';
import { taskStatusValues } from '../store/task-records.js';
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
const approvalIdParam = { ...idParam, description: 'approval id' };
const stepParam = {
  name: 'index',
  in: 'path',
  required: true,
  schema: { type: 'integer', minimum: 1 },
};

/** Query parameters from the zod object schema a route parses its query with. */
function queryParameters(schema: z.ZodObject) {
  const { properties = {}, required = [] } = json(schema) as {
    properties?: Record<string, object>;
    required?: string[];
  };
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    ...(required.includes(name) ? { required: true } : {}),
    schema: property,
  }));
}

const approvalPaths = () => ({
  '/v1/approvals': {
    get: {
      summary: 'List operator approvals, newest first',
      parameters: queryParameters(approvalListQuerySchema),
      responses: {
        '200': {
          description: 'Approvals',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { approvals: { type: 'array', items: ref('Approval') } },
              },
            },
          },
        },
        '400': errors['400'],
      },
    },
  },
  '/v1/approvals/{id}': {
    get: {
      summary: 'One approval',
      parameters: [approvalIdParam],
      responses: {
        '200': { description: 'The approval', ...body('Approval') },
        '404': { description: 'No such approval', ...body('Error') },
      },
    },
    post: {
      summary: 'Approve or deny a pending approval',
      parameters: [approvalIdParam],
      requestBody: { required: true, ...body('ApprovalAnswer') },
      responses: {
        '200': { description: 'The answered approval', ...body('Approval') },
        '400': errors['400'],
        '404': { description: 'No such approval', ...body('Error') },
        '409': { description: 'Already answered or expired', ...body('Error') },
      },
    },
  },
});

type Operation = { summary: string; responses: Record<string, unknown> } & Record<string, unknown>;

/**
 * Marks every `/v1` operation as needing a bearer token with the scope `scopeForRequest` (what
 * the auth middleware enforces) and adds the 401/403 answers. `{id}` paths stand for any id.
 */
function secured(paths: Record<string, Record<string, Operation>>) {
  const secure = (path: string, method: string, operation: Operation) => {
    const scope = scopeForRequest(method.toUpperCase(), path);
    return {
      ...operation,
      description: `Needs a bearer token with the \`${scope}\` scope (or \`admin\`).`,
      security: [{ bearer: [] }],
      responses: {
        ...operation.responses,
        '401': { description: 'Token missing, invalid or expired', ...body('Error') },
        '403': { description: `Token lacks the ${scope} scope`, ...body('Error') },
      },
    };
  };
  return Object.fromEntries(
    Object.entries(paths).map(([path, operations]) => [
      path,
      Object.fromEntries(
        Object.entries(operations).map(([method, operation]) => [
          method,
          secure(path, method, operation),
        ]),
      ),
    ]),
  );
}

/** The OpenAPI 3.1 document of the REST API, generated from the same zod schemas the routes use. */
export function buildOpenApiDocument(version: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Clawdie controlplane',
      version,
      description:
        'browser_run_task over REST, with step-level traces. Without the admin scope a token ' +
        "sees only its own tenant's tasks; another tenant's task answers 404.",
    },
    paths: secured({
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
                enum: [...taskStatusValues],
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
          summary:
            'Server-Sent Events: status (queued, running, paused), step (one per ended step, with the step_count), result; resumable with Last-Event-ID',
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
      ...approvalPaths(),
    }),
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A token from `clawdie token create --tenant T --scope S`',
        },
      },
      schemas: {
        BrowserRunTaskInput: json(z.strictObject(browserRunTaskFields)),
        Approval: json(approvalViewSchema),
        ApprovalAnswer: json(approvalAnswerSchema),
        CompactResult: json(compactResultSchema),
        Error: json(errorSchema),
      },
    },
  };
}

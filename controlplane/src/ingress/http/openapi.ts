import { z } from 'zod';
import { waitInputSchema } from '../../browser/wait/wait-service.js';
import {
  approvalAnswerSchema,
  approvalViewSchema,
} from '../../governance/approvals/approval-schemas.js';
import { isScope } from '../../governance/auth/scopes.js';
import { compactResultSchema } from '../../tasks/task-input.js';
import { browserRunTaskFields } from '../../tasks/task-input-fields.js';
import { SESSION_COOKIE } from '../dashboard/admin-auth.js';
import { routeTable } from './route-table.js';
import { type Access, openApiPath, type ResponseDoc, type TableEntry } from './route-types.js';

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
const jsonBody = (schema: object) => ({ content: { 'application/json': { schema } } });

/** Path or query parameters from the zod object schema a route parses them with. */
function parameters(schema: z.ZodObject | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const { properties = {}, required = [] } = json(schema) as {
    properties?: Record<string, { description?: string }>;
    required?: string[];
  };
  return Object.entries(properties).map(([name, { description, ...property }]) => ({
    name,
    in: where,
    ...(where === 'path' || required.includes(name) ? { required: true } : {}),
    schema: property,
    ...(description ? { description } : {}),
  }));
}

function response({ description, ref: name, schema, contentType }: ResponseDoc) {
  if (name) return { description, ...jsonBody(ref(name)) };
  if (schema) return { description, ...jsonBody(json(schema)) };
  if (contentType) return { description, content: { [contentType]: {} } };
  return { description };
}

/** Who may call: `x-required-scope` is what the route table enforces, `security` the scheme. */
function access(access: Access) {
  if (access === 'public') return { 'x-required-scope': access, security: [] };
  if (access === 'dashboard-session') {
    return {
      'x-required-scope': access,
      description: 'Needs the dashboard session cookie from its own login form (admin token).',
      security: [{ dashboardSession: [] }],
    };
  }
  return {
    'x-required-scope': access,
    description: `Needs a bearer token with the \`${access}\` scope${access === 'admin' ? '' : ' (or `admin`)'}.`,
    security: [{ bearer: [] }],
  };
}

function operation(entry: TableEntry) {
  const responses = Object.fromEntries(
    Object.entries(entry.responses).map(([status, doc]) => [status, response(doc)]),
  );
  if (isScope(entry.access)) {
    responses['401'] = response({ description: 'Token missing, invalid or expired', ref: 'Error' });
    responses['403'] = response({
      description: `Token lacks the ${entry.access} scope`,
      ref: 'Error',
    });
    responses['429'] = response({
      description: 'Too many refused requests from this client address (Retry-After)',
      ref: 'Error',
    });
  }
  const common = { summary: entry.summary, ...access(entry.access) };
  if (entry.description) common.description = `${entry.description} ${common.description ?? ''}`;
  if (entry.kind === 'mount') return { ...common, responses };
  const headers = (entry.headers ?? []).map((header) => ({ ...header, in: 'header' }));
  const params = [
    ...parameters(entry.params, 'path'),
    ...parameters(entry.query, 'query'),
    ...headers,
  ];
  const body = entry.body
    ? {
        requestBody: {
          required: true,
          ...jsonBody(entry.bodyRef ? ref(entry.bodyRef) : json(entry.body)),
        },
      }
    : {};
  return { ...common, ...(params.length > 0 ? { parameters: params } : {}), ...body, responses };
}

/** The `paths` object: one operation per table route, one per method of a mounted sub-app. */
export function documentedPaths(table: readonly TableEntry[]) {
  const paths: Record<string, Record<string, object>> = {};
  for (const entry of table) {
    const path =
      entry.kind === 'mount' ? (entry.documentedPath ?? entry.path) : openApiPath(entry.path);
    const methods = entry.kind === 'mount' ? entry.methods : [entry.method];
    paths[path] ??= {};
    for (const method of methods) paths[path][method.toLowerCase()] = operation(entry);
  }
  return paths;
}

/** The OpenAPI 3.1 document of the HTTP API, generated from the route table and its zod schemas. */
export function buildOpenApiDocument(version: string, table: readonly TableEntry[] = routeTable) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Clawdie controlplane',
      version,
      description:
        'browser_run_task over REST, with step-level traces. Without the admin scope a token ' +
        "sees only its own tenant's tasks; another tenant's task answers 404. Each operation's " +
        '`x-required-scope` is the scope the server enforces (`public`: none).',
    },
    paths: documentedPaths(table),
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A token from `clawdie token create --tenant T --scope S`',
        },
        dashboardSession: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'Set by POST /dashboard/login with the admin token',
        },
      },
      schemas: {
        BrowserRunTaskInput: json(z.strictObject(browserRunTaskFields)),
        Approval: json(approvalViewSchema),
        ApprovalAnswer: json(approvalAnswerSchema),
        WaitInput: json(waitInputSchema),
        CompactResult: json(compactResultSchema),
        Error: json(errorSchema),
      },
    },
  };
}

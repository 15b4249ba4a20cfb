import { z } from 'zod';
import { TAKEOVER_COOKIE } from '../../browser/takeover/takeover-sessions.js';
import { waitInputSchema } from '../../browser/wait/wait-service.js';
import {
  approvalAnswerSchema,
  approvalViewSchema,
} from '../../governance/approvals/approval-schemas.js';
import { compactResultSchema } from '../../tasks/task-input.js';
import { browserRunTaskFields } from '../../tasks/task-input-fields.js';
import { SESSION_COOKIE } from '../dashboard/admin-auth.js';
import { json, jsonBody, type OperationDoc, operation, ref } from './openapi-operation.js';
import { routeTable } from './route-table.js';
import { openApiPath, type TableEntry } from './route-types.js';

const errorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  }),
});

/** The operations of one table entry: its route, or every route of a mounted sub-app. */
function operationsOf(entry: TableEntry): OperationDoc[] {
  if (entry.kind === 'mount') {
    const tag = entry.path.slice(1);
    return entry.routes.map((route) => ({
      ...route,
      path: `${entry.path}${route.path}`,
      access: route.access ?? entry.access,
      tags: [tag],
      requestBody: route.body && {
        required: true,
        content: { [route.body.contentType]: { schema: json(route.body.schema) } },
      },
    }));
  }
  const body = entry.body && {
    required: true,
    ...jsonBody(entry.bodyRef ? ref(entry.bodyRef) : json(entry.body)),
  };
  return [{ ...entry, requestBody: body }];
}

/** The `paths` object: one operation per table route and per route of a mounted sub-app. */
export function documentedPaths(table: readonly TableEntry[]) {
  const paths: Record<string, Record<string, object>> = {};
  for (const entry of table) {
    for (const doc of operationsOf(entry)) {
      const path = openApiPath(doc.path);
      paths[path] ??= {};
      paths[path][doc.method.toLowerCase()] = operation(doc);
    }
  }
  return paths;
}

/** A tag per mounted sub-app, described by its entry's summary. */
const tagsOf = (table: readonly TableEntry[]) =>
  table.flatMap((entry) =>
    entry.kind === 'mount' ? [{ name: entry.path.slice(1), description: entry.summary }] : [],
  );

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
    tags: tagsOf(table),
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
        takeoverSession: {
          type: 'apiKey',
          in: 'cookie',
          name: TAKEOVER_COOKIE,
          description: 'Set by POST /takeover/{id}/open with a signed single-use takeover link',
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

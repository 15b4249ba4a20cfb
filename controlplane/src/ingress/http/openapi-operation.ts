// One OpenAPI operation from what a route declares: who may call it, its parameters (from the zod
// schemas it parses with, and every `:name` of its path), its body and its answers.
import { z } from 'zod';
import { isScope } from '../../governance/auth/scopes.js';
import type { Access, Method, ResponseDoc } from './route-types.js';

export const json = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' });
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const jsonBody = (schema: object) => ({ content: { 'application/json': { schema } } });

/** What one operation is built from (a table route, or one route of a mounted sub-app). */
export interface OperationDoc {
  method: Method;
  /** Hono syntax: `/v1/tasks/:id`. */
  path: string;
  access: Access;
  summary: string;
  description?: string | undefined;
  tags?: string[];
  params?: z.ZodObject | undefined;
  query?: z.ZodObject | undefined;
  headers?: { name: string; schema: object; description?: string }[] | undefined;
  requestBody?: object | undefined;
  responses: Record<string, ResponseDoc>;
}

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

/** Every `:name` of the path: from its schema when it has one, else a string. */
function pathParameters(path: string, schema: z.ZodObject | undefined) {
  const declared = parameters(schema, 'path');
  const names = [...path.matchAll(/:([A-Za-z_]+)/g)].map(([, name]) => name);
  const untyped = names
    .filter((name) => !declared.some((parameter) => parameter.name === name))
    .map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  return [...declared, ...untyped];
}

function response({ description, ref: name, schema, contentType }: ResponseDoc) {
  if (name) return { description, ...jsonBody(ref(name)) };
  if (schema) return { description, ...jsonBody(json(schema)) };
  if (!contentType) return { description };
  const types: readonly string[] = typeof contentType === 'string' ? [contentType] : contentType;
  return { description, content: Object.fromEntries(types.map((type) => [type, {}])) };
}

const sessions = {
  'dashboard-session': {
    description: 'Needs the dashboard session cookie from its own login form (admin token).',
    security: [{ dashboardSession: [] }],
  },
  'takeover-session': {
    description:
      'Needs the takeover session cookie that POST /takeover/{id}/open sets for a signed single-use link.',
    security: [{ takeoverSession: [] }],
  },
};

/** Who may call: `x-required-scope` is what the route table enforces, `security` the scheme. */
function accessOf(access: Access) {
  if (access === 'public') return { 'x-required-scope': access, security: [] };
  if (!isScope(access)) return { 'x-required-scope': access, ...sessions[access] };
  return {
    'x-required-scope': access,
    description: `Needs a bearer token with the \`${access}\` scope${access === 'admin' ? '' : ' (or `admin`)'}.`,
    security: [{ bearer: [] }],
  };
}

export function operation(doc: OperationDoc) {
  const responses = Object.fromEntries(
    Object.entries(doc.responses).map(([status, answer]) => [status, response(answer)]),
  );
  if (isScope(doc.access)) {
    responses['401'] = response({ description: 'Token missing, invalid or expired', ref: 'Error' });
    responses['403'] = response({
      description: `Token lacks the ${doc.access} scope`,
      ref: 'Error',
    });
    responses['429'] = response({
      description: 'Too many refused requests from this client address (Retry-After)',
      ref: 'Error',
    });
  }
  const common: { summary: string; description?: string } = {
    summary: doc.summary,
    ...accessOf(doc.access),
  };
  if (doc.description) common.description = `${doc.description} ${common.description ?? ''}`;
  const headers = (doc.headers ?? []).map((header) => ({ ...header, in: 'header' }));
  const params = [
    ...pathParameters(doc.path, doc.params),
    ...parameters(doc.query, 'query'),
    ...headers,
  ];
  return {
    ...(doc.tags ? { tags: doc.tags } : {}),
    ...common,
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(doc.requestBody ? { requestBody: doc.requestBody } : {}),
    responses,
  };
}

// Walks the routes actually mounted on a Hono app (`app.routes`) and reports each one that is
// not owned by a route-table entry, has no access (scope) declared, or is not in the OpenAPI
// document with that access; and each table entry that should be mounted but is not.
import type { Hono } from 'hono';
import { scopes } from '../../../../../controlplane/src/governance/auth/scopes.js';
import {
  openApiPath,
  type TableEntry,
} from '../../../../../controlplane/src/ingress/http/route-types.js';

type Document = { paths: Record<string, Record<string, { 'x-required-scope'?: string }>> };

/**
 * `app.use(…/*)`: the body limit and unread-body guard before every route, a mount's scope guard,
 * the dashboard's session check. Middleware, not routes.
 */
export const isMiddleware = (route: { method: string; path: string }) =>
  route.method === 'ALL' && route.path.endsWith('*');

const accessValues: readonly string[] = [
  ...scopes,
  'public',
  'dashboard-session',
  'takeover-session',
];

function ownerOf(table: readonly TableEntry[], method: string, path: string) {
  return table.find((entry) =>
    entry.kind === 'mount'
      ? path === entry.path || path.startsWith(`${entry.path}/`)
      : entry.method === method && entry.path === path,
  );
}

/** The operations a mounted route is documented as (a mount's `ALL` route: each it declares). */
function documented(document: Document, entry: TableEntry, method: string, mounted: string) {
  const declared =
    entry.kind === 'route'
      ? [{ method: entry.method, path: entry.path, access: entry.access }]
      : entry.routes
          .map((route) => ({
            method: route.method,
            path: `${entry.path}${route.path}`,
            access: route.access ?? entry.access,
          }))
          .filter(
            (route) => route.path === mounted && (method === 'ALL' || route.method === method),
          );
  return declared.map((route) => ({
    ...route,
    path: openApiPath(route.path),
    operation: document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()],
  }));
}

export function auditRoutes(
  app: Hono,
  table: readonly TableEntry[],
  document: Document,
  configured: (entry: TableEntry) => boolean = () => true,
): string[] {
  const problems: string[] = [];
  const owners = new Set<TableEntry>();
  for (const route of app.routes) {
    if (isMiddleware(route)) continue;
    const name = `${route.method} ${route.path}`;
    const entry = ownerOf(table, route.method, route.path);
    if (!entry) {
      problems.push(`${name}: mounted but not in the route table`);
      continue;
    }
    owners.add(entry);
    if (!accessValues.includes(entry.access)) problems.push(`${name}: no scope (${entry.access})`);
    const operations = documented(document, entry, route.method, route.path);
    if (operations.length === 0) problems.push(`${name}: not declared by its mount`);
    for (const { method, path, access, operation } of operations) {
      if (!operation) problems.push(`${name}: ${method} ${path} missing from /openapi.json`);
      else if (operation['x-required-scope'] !== access)
        problems.push(`${name}: documented as ${operation['x-required-scope']}, not ${access}`);
    }
  }
  for (const entry of table) {
    if (configured(entry) && !owners.has(entry)) {
      problems.push(
        `${entry.kind === 'route' ? entry.method : 'mount'} ${entry.path}: in the table but not mounted`,
      );
    }
  }
  return problems;
}

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

/** `app.use('*', …)` before every route: the body limit and unread-body guard. Not routes. */
const isGlobalMiddleware = (route: { method: string; path: string }) =>
  route.method === 'ALL' && (route.path === '*' || route.path === '/*');

const accessValues: readonly string[] = [...scopes, 'public', 'dashboard-session'];

function ownerOf(table: readonly TableEntry[], method: string, path: string) {
  return table.find((entry) =>
    entry.kind === 'mount'
      ? path === entry.path || path.startsWith(`${entry.path}/`)
      : entry.method === method && entry.path === path,
  );
}

function documented(document: Document, entry: TableEntry) {
  const path =
    entry.kind === 'mount' ? (entry.documentedPath ?? entry.path) : openApiPath(entry.path);
  const methods = entry.kind === 'mount' ? entry.methods : [entry.method];
  return methods.map((method) => ({
    method,
    path,
    operation: document.paths[path]?.[method.toLowerCase()],
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
    if (isGlobalMiddleware(route)) continue;
    const name = `${route.method} ${route.path}`;
    const entry = ownerOf(table, route.method, route.path);
    if (!entry) {
      problems.push(`${name}: mounted but not in the route table`);
      continue;
    }
    owners.add(entry);
    if (!accessValues.includes(entry.access)) problems.push(`${name}: no scope (${entry.access})`);
    for (const { method, path, operation } of documented(document, entry)) {
      if (!operation) problems.push(`${name}: ${method} ${path} missing from /openapi.json`);
      else if (operation['x-required-scope'] !== entry.access)
        problems.push(
          `${name}: documented as ${operation['x-required-scope']}, not ${entry.access}`,
        );
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

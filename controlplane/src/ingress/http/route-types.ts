// The shape of one entry of the controlplane's route table (`route-table.ts`): what is mounted, who
// may call it, what it reads and answers (zod), and the handler. Mounting, scope enforcement and
// the OpenAPI document are all derived from these entries.
import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import type { AuthFailureLimiter } from '../../governance/auth/auth-failure-limiter.js';
import type { Scope } from '../../governance/auth/scopes.js';
import type { AppDeps } from './app-deps.js';
import type { ForwardMode } from './replica-forward/forward-to-owner.js';

/**
 * Who may call a route: a bearer token with this scope, anyone, the dashboard's own login, or the
 * session a takeover link opens.
 */
export type Access = Scope | 'public' | 'dashboard-session' | 'takeover-session';
export type Method = 'GET' | 'POST' | 'DELETE';

/**
 * What a route's handler is given: everything the app was built with, plus its OpenAPI document
 * and the app's one failure limiter.
 */
export type RouteDeps = AppDeps & { openapi: object; refusals: AuthFailureLimiter };

/** One documented answer: JSON with a named component (`ref`) or inline `schema`, or another type. */
export interface ResponseDoc {
  description: string;
  ref?: string;
  schema?: z.ZodType;
  /** A non-JSON answer (or several it may be, e.g. JSON or an event stream). */
  contentType?: string | readonly string[];
}

interface RouteCommon {
  path: string;
  access: Access;
  summary: string;
  description?: string;
  /** Mounted only when this optional dependency is configured (always documented). */
  needs?: 'approvals' | 'waits' | 'dashboard' | 'sessions' | 'takeover';
  /**
   * A task route (`:id`) that needs what only the replica running the task holds: forwarded to
   * it when another live replica owns the task (`replica-forward/forward-to-owner.ts`).
   */
  forward?: ForwardMode;
}

/**
 * What a handler receives: the query and body parsed with the entry's schemas before it runs (a
 * ZodError is a 400), and the path parameters parsed when it asks, so a route can answer 404 for
 * an unknown task before it checks the step index.
 */
export interface RouteInput<P = unknown, Q = unknown, B = unknown> {
  params: () => P;
  query: Q;
  body: B;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteSpec<P, Q, B> extends RouteCommon {
  method: Method;
  params?: P;
  query?: Q;
  body?: B;
  /** The component the body is documented as (else its schema inline). */
  bodyRef?: string;
  /** Extra documented parameters that no schema parses (e.g. a header). */
  headers?: { name: string; schema: object; description?: string }[];
  responses: Record<string, ResponseDoc>;
  handle: (
    c: Context,
    input: RouteInput<Out<P>, Out<Q>, Out<B>>,
    deps: RouteDeps,
  ) => Response | Promise<Response>;
}

/** A route the table mounts and documents; `route()` builds one with typed handler input. */
export type RouteEntry = RouteSpec<
  z.ZodObject | undefined,
  z.ZodObject | undefined,
  z.ZodType | undefined
> & {
  kind: 'route';
};

/**
 * One route a mounted sub-app answers, for the document: its path below the mount in Hono syntax
 * (`''` is the mount point, `/tasks/:id/live`); each `:name` is documented as a path parameter.
 */
export interface MountedRoute {
  method: Method;
  path: string;
  summary: string;
  /** Who may call it, when not the mount's `access` (a sub-app's own login, its public assets). */
  access?: Exclude<Access, Scope>;
  query?: z.ZodObject;
  headers?: { name: string; schema: object; description?: string }[];
  body?: { contentType: string; schema: z.ZodType };
  responses: Record<string, ResponseDoc>;
}

/**
 * A sub-app mounted at `path`; `routes` are every route it answers, each one documented. Scope
 * `access` is enforced on `path` and everything below it.
 */
export interface MountEntry extends RouteCommon {
  kind: 'mount';
  routes: MountedRoute[];
  create: (deps: RouteDeps) => Hono;
}

export type TableEntry = RouteEntry | MountEntry;

export function route<
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(spec: RouteSpec<P, Q, B>): RouteEntry {
  return { ...spec, kind: 'route' } as unknown as RouteEntry;
}

/** `/v1/tasks/:id` → `/v1/tasks/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}

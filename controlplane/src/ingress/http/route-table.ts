// The controlplane's one route table. `createApp` mounts exactly these entries (each behind the
// guard its `access` names), and `/openapi.json` is generated from them; nothing is mounted or
// documented anywhere else.

import { sessionRoutes } from '../../browser/sessions/session-routes.js';
import { takeoverMount } from '../../browser/takeover/takeover-mount.js';
import { takeoverRestRoutes } from '../../browser/takeover/takeover-rest-routes.js';
import { approvalRoutes } from '../../governance/approvals/approval-routes.js';
import { artifactRoutes } from './artifact-routes.js';
import { metaRoutes } from './meta-routes.js';
import { mountedApps } from './mounted-apps.js';
import type { TableEntry } from './route-types.js';
import { taskRoutes } from './task-routes.js';
import { waitRoutes } from './wait-routes.js';

export const routeTable: readonly TableEntry[] = [
  ...metaRoutes,
  ...taskRoutes,
  ...artifactRoutes,
  ...approvalRoutes,
  ...waitRoutes,
  ...sessionRoutes,
  ...takeoverRestRoutes,
  ...mountedApps,
  takeoverMount,
];

/** Scope an unknown path under `/v1/` needs before it answers 404 (fail closed). */
export const unknownApiScope = 'admin';

import { z } from 'zod';
import { createBearerCheck } from '../../governance/auth/bearer-check.js';
import { hasScope } from '../../governance/auth/scopes.js';
import { faviconSvg } from '../dashboard/assets.js';
import { type RouteEntry, route } from './route-types.js';

/** Public: `/health`, `/openapi.json`, `/favicon.ico`. */
export const metaRoutes: RouteEntry[] = [
  route({
    method: 'GET',
    path: '/health',
    access: 'public',
    summary: 'Liveness; with an admin token also the configured model and browser',
    responses: {
      '200': {
        description: 'ok',
        schema: z.looseObject({ status: z.literal('ok') }),
      },
    },
    // Status only; the model and browser details (internal URLs) need an admin token.
    handle: async (c, _input, deps) => {
      const outcome = deps.auth ? await createBearerCheck(deps.auth.verifier)(c) : undefined;
      const admin =
        outcome !== undefined && 'principal' in outcome && hasScope(outcome.principal, 'admin');
      return c.json(admin ? { status: 'ok', ...deps.describe() } : { status: 'ok' });
    },
  }),
  route({
    method: 'GET',
    path: '/openapi.json',
    access: 'public',
    summary: 'This document',
    responses: { '200': { description: 'OpenAPI 3.1 document' } },
    handle: (c, _input, deps) => c.json(deps.openapi),
  }),
  route({
    method: 'GET',
    path: '/favicon.ico',
    access: 'public',
    summary: 'The icon',
    responses: { '200': { description: 'image/svg+xml', contentType: 'image/svg+xml' } },
    handle: (c) =>
      c.body(faviconSvg, 200, {
        'content-type': 'image/svg+xml',
        'cache-control': 'max-age=86400',
      }),
  }),
];

import { z } from 'zod';
import { hasScope } from '../auth/scopes.js';
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
      const principal = await deps.auth?.verifier
        .verify(c.req.header('authorization'))
        .catch(() => undefined);
      const admin = principal !== undefined && hasScope(principal, 'admin');
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

import { z } from 'zod';
import { type WaitService, waitInputSchema } from '../../browser/wait/wait-service.js';
import { AppError, NotFoundError } from '../../errors.js';
import { type RouteEntry, route } from './route-types.js';

const waitParams = z.object({ id: z.string().describe('wait id') });
const noWait = { description: 'No such wait', ref: 'Error' };
/** Present only when the app was built with waits (`needs: 'waits'`). */
const waitsOf = (deps: { waits?: WaitService | undefined }): WaitService => {
  if (!deps.waits) throw new Error('wait routes mounted without a wait service');
  return deps.waits;
};

/**
 * `/v1/waits` (docs/waits.md; admin scope): start a wait on the controlplane's browser screen, poll
 * or block for its outcome, cancel it. Each wait settles exactly once: resolved, timeout,
 * cancelled, failed, stalled.
 */
export const waitRoutes: RouteEntry[] = [
  route({
    method: 'POST',
    path: '/v1/waits',
    access: 'admin',
    needs: 'waits',
    summary: 'Start a wait on a browser screen; with block=true answer once it has settled',
    body: waitInputSchema,
    bodyRef: 'WaitInput',
    responses: {
      '200': { description: 'The settled wait (block=true)' },
      '202': {
        description: 'Watching (block=false)',
        schema: z.object({ wait_id: z.string(), status: z.literal('watching') }),
      },
      '400': {
        description:
          'Invalid request (the message names the field), or JUDGE_UNAVAILABLE: a visual condition and no vision judge configured',
        ref: 'Error',
      },
      '404': { description: 'No such running task (task_id)', ref: 'Error' },
    },
    handle: async (c, { body }, deps) => {
      const waits = waitsOf(deps);
      const { id, outcome } = waits.start(body);
      if (!body.block) {
        void outcome.catch(() => undefined);
        return c.json({ wait_id: id, status: 'watching' }, 202);
      }
      await outcome;
      return c.json(waits.view(id), 200);
    },
  }),
  route({
    method: 'GET',
    path: '/v1/waits/:id',
    access: 'admin',
    needs: 'waits',
    summary: 'A wait: watching, or its outcome',
    params: waitParams,
    responses: { '200': { description: 'The wait' }, '404': noWait },
    handle: (c, _input, deps) => {
      const view = waitsOf(deps).view(c.req.param('id') ?? '');
      if (!view) throw new NotFoundError(`no wait ${c.req.param('id')}`);
      return c.json(view);
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/waits/:id',
    access: 'admin',
    needs: 'waits',
    summary: 'Cancel a wait that has not settled',
    params: waitParams,
    responses: {
      '200': { description: 'Cancelled' },
      '404': noWait,
      '409': { description: 'Already settled', ref: 'Error' },
    },
    handle: (c, _input, deps) => {
      const waits = waitsOf(deps);
      const id = c.req.param('id') ?? '';
      if (waits.cancel(id)) return c.json({ wait_id: id, status: 'cancelled' });
      if (!waits.view(id)) throw new NotFoundError(`no wait ${id}`);
      throw new AppError('WAIT_NOT_ACTIVE', `wait ${id} has already settled`, { status: 409 });
    },
  }),
];

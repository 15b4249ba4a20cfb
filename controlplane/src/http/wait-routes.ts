import { Hono } from 'hono';
import { AppError, NotFoundError } from '../errors.js';
import { type WaitService, waitInputSchema } from '../wait/wait-service.js';
import { readJson } from './error-handler.js';

/**
 * `/v1/waits` (docs/waits.md): start a wait on the controlplane's browser screen, poll or block
 * for its outcome, cancel it. Each wait settles exactly once: resolved, timeout, cancelled, failed.
 */
export function createWaitRoutes(waits: WaitService) {
  return new Hono()
    .post('/', async (c) => {
      const input = waitInputSchema.parse(await readJson(c));
      const { id, outcome } = waits.start(input);
      if (!input.block) {
        void outcome.catch(() => undefined);
        return c.json({ wait_id: id, status: 'watching' }, 202);
      }
      await outcome;
      return c.json(waits.view(id), 200);
    })
    .get('/:id', (c) => {
      const view = waits.view(c.req.param('id'));
      if (!view) throw new NotFoundError(`no wait ${c.req.param('id')}`);
      return c.json(view);
    })
    .delete('/:id', (c) => {
      const id = c.req.param('id');
      if (waits.cancel(id)) return c.json({ wait_id: id, status: 'cancelled' });
      if (!waits.view(id)) throw new NotFoundError(`no wait ${id}`);
      throw new AppError('WAIT_NOT_ACTIVE', `wait ${id} has already settled`, { status: 409 });
    });
}

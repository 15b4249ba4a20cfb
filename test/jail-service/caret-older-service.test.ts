// A controlplane newer than a clone's jail-service (a fleet host not yet upgraded): the older
// service's strict query schema refuses `?caret=hide`. The operator then asks again without it,
// remembers that this service predates it, and a wait still gets its frames (with the caret, as
// before). The older service here is the real error path (`parseRequest` + `errorHandler`) over the
// query schema as it was before `caret`, on loopback HTTP.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { screenshotHeaders } from '@clawdie/kit/jail-api';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import sharp from 'sharp';
import { z } from 'zod';
import { createClawdieBrowserOperator } from '../../controlplane/src/browser/operator/clawdie-browser-operator.js';
import { OperatorError } from '../../controlplane/src/errors.js';
import { errorHandler, parseRequest } from '../../jail-service/src/error-handler.js';
import { silentLogger } from '../support/silent-logger.js';

/** `GET /screenshot`'s query before `caret` existed. */
const olderQuerySchema = z.strictObject({
  quality: z.coerce.number().int().min(1).max(100).optional(),
});

describe('hideCaret against a jail-service that predates it', () => {
  const seen: string[] = [];
  let url = '';
  let close: () => void;
  before(async () => {
    const jpeg = await sharp({
      create: { width: 8, height: 8, channels: 3, background: '#fff' },
    })
      .jpeg()
      .toBuffer();
    const app = new Hono();
    app.onError(errorHandler(silentLogger));
    app.get('/screenshot', (c) => {
      seen.push(new URL(c.req.url).search);
      parseRequest(olderQuerySchema, c.req.query(), 'query');
      return c.body(new Uint8Array(jpeg), 200, {
        'content-type': 'image/jpeg',
        [screenshotHeaders.viewportWidth]: '8',
        [screenshotHeaders.viewportHeight]: '8',
        [screenshotHeaders.devicePixelRatio]: '1',
        [screenshotHeaders.imageWidth]: '8',
        [screenshotHeaders.imageHeight]: '8',
      });
    });
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  after(() => close?.());

  it('asks again without it once, then never sends it to that service', async () => {
    seen.length = 0;
    const operator = createClawdieBrowserOperator({ url, token: 't', quality: 70 });
    const first = await operator.screenshot(undefined, { hideCaret: true });
    assert.equal(first.meta.imageWidth, 8);
    assert.deepEqual(seen, ['?quality=70&caret=hide', '?quality=70']);
    await operator.screenshot(undefined, { hideCaret: true });
    await operator.screenshot();
    assert.deepEqual(seen.slice(2), ['?quality=70', '?quality=70']);
  });

  it('still reports any other refusal', async () => {
    const operator = createClawdieBrowserOperator({ url, token: 't', quality: 70 });
    seen.length = 0;
    const broken = createClawdieBrowserOperator({ url: `${url}/missing`, token: 't' });
    await assert.rejects(
      broken.screenshot(undefined, { hideCaret: true }),
      (error) => error instanceof OperatorError && error.code === 'OPERATOR_REJECTED',
    );
    assert.deepEqual(seen, [], 'a 404 is not taken for a refused caret');
    await operator.screenshot(undefined, { hideCaret: true });
    assert.deepEqual(seen, ['?quality=70&caret=hide', '?quality=70'], 'each operator learns it');
  });
});

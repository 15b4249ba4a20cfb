// Issue 12, found item 9: after the jail-service answered 413 to a body over 1 MB, the next call
// on the same pooled connection failed (UND_ERR_SOCKET) and the task ended OPERATOR_UNAVAILABLE;
// batches over the jail's 20-action maximum were sent unchanged. The service now closes the
// connection with its 413, the client repeats a read once on a fresh connection, and it splits
// batches so that no request exceeds the service's count or byte limits.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type Action, MAX_REQUEST_BODY_BYTES } from '@clawdie/kit/jail-api';
import { createClawdieBrowserOperator } from '../../controlplane/src/browser/operator/clawdie-browser-operator.js';
import { OperatorError } from '../../controlplane/src/errors.js';
import { startTestJail, type TestJail, TOKEN } from '../jail-service/jail-harness.js';
import { requires } from '../support/capabilities.js';

const _chromium = process.env.CLAWDIE_CHROMIUM_PATH || '/usr/bin/chromium';

describe('operator client against the real jail-service', requires('chromium'), () => {
  let jail: TestJail;
  before(async () => {
    jail = await startTestJail();
  });
  after(async () => {
    await jail?.close();
  });

  it('keeps working after the jail-service answers 413 on a pooled connection', async () => {
    const operator = createClawdieBrowserOperator({ url: jail.url, token: TOKEN });
    for (let round = 0; round < 5; round++) {
      await operator.state();
      // The same global connection pool as the operator: a 2 MB body gets a 413.
      const huge = await fetch(`${jail.url}/actions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ actions: [{ type: 'type', text: 'x'.repeat(2_000_000) }] }),
      });
      assert.equal(huge.status, 413);
      await huge.body?.cancel();
      for (let call = 0; call < 4; call++) {
        assert.equal((await operator.state()).url, 'about:blank', `round ${round} call ${call}`);
      }
      const shot = await operator.screenshot();
      assert.ok(shot.jpeg.length > 0);
    }
  });

  it('splits a 45-action batch into requests the service accepts', async () => {
    const operator = createClawdieBrowserOperator({ url: jail.url, token: TOKEN });
    const actions: Action[] = Array.from({ length: 45 }, () => ({ type: 'wait', ms: 1 }));
    const response = await operator.execute(actions);
    assert.equal(response.results.length, 45);
    assert.deepEqual(
      response.results.map((result) => [result.index, result.status]),
      actions.map((_, index) => [index, 'ok']),
    );
  });
});

describe('operator client request sizes', () => {
  let server: Server;
  let url = '';
  const bodies: number[] = [];
  let resetNext = false;
  before(async () => {
    server = createServer((request: IncomingMessage, response) => {
      if (resetNext && request.method === 'GET') {
        resetNext = false;
        request.socket.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        response.setHeader('content-type', 'application/json');
        if (request.method === 'GET') {
          response.end(JSON.stringify({ url: 'about:blank', title: '', loading: false }));
          return;
        }
        const body = Buffer.concat(chunks);
        bodies.push(body.length);
        const { actions } = JSON.parse(body.toString()) as { actions: Action[] };
        const results = actions.map((action, index) => ({
          index,
          type: action.type,
          status: 'ok',
          duration_ms: 0,
          navigated: false,
        }));
        response.end(
          JSON.stringify({ results, state: { url: 'about:blank', title: '', loading: false } }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('never sends a body over the jail-service limit', async () => {
    const operator = createClawdieBrowserOperator({ url, token: TOKEN });
    // 20 × 10,000 escaped control characters ≈ 1.2 MB as JSON: over the limit as one request.
    const actions: Action[] = Array.from({ length: 20 }, () => ({
      type: 'type',
      text: '\u0001'.repeat(10_000),
    }));
    bodies.length = 0;
    const response = await operator.execute(actions);
    assert.equal(response.results.length, 20);
    assert.ok(bodies.length >= 2, `sent ${bodies.length} request(s)`);
    for (const size of bodies) assert.ok(size <= MAX_REQUEST_BODY_BYTES, `a ${size}-byte body`);
    assert.deepEqual(
      response.results.map((result) => result.index),
      actions.map((_, index) => index),
    );

    bodies.length = 0;
    const single = [{ type: 'type', text: '\u0001'.repeat(200_000) }] as unknown as Action[];
    await assert.rejects(
      operator.execute(single),
      (error: unknown) => error instanceof OperatorError && error.code === 'OPERATOR_REJECTED',
    );
    assert.equal(bodies.length, 0, 'an action too large alone is refused before sending');
  });

  it('repeats a read once on a fresh connection after the connection is reset', async () => {
    const operator = createClawdieBrowserOperator({ url, token: TOKEN });
    await operator.state();
    resetNext = true;
    assert.equal((await operator.state()).url, 'about:blank');
    assert.equal(resetNext, false, 'the reset happened');
  });
});

// Issue 12, found item 5: unauthenticated requests grew the audit log one row each (5,000 junk
// requests added 5,000 rows). Now they are counted per client address, audited as a handful of
// rows, and answered 429 past the limit, while a valid token keeps working. 1,000 requests (33×
// the limit) here; the reported 5,000 in `npm run test:soak` (test/support/test-size.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createReplayModel } from '../../controlplane/src/agent/model/replay-model.js';
import { createAuthFixture } from '../controlplane/governance/auth/auth-fixture.js';
import { createTestControlplane } from '../support/controlplane.js';
import { sized } from '../support/test-size.js';

const REQUESTS = sized(1000, 5000);

describe('security: failed authentication is counted and rate-limited, not audited row by row', () => {
  it(`adds a handful of rows for ${REQUESTS} junk requests, answers 429 past the limit, and still serves a valid token`, async (t) => {
    const fixture = await createAuthFixture();
    // `npm start`'s composition root with the shipped auth-failure defaults (config.ts: 30
    // failures a minute per address), bearer tokens signed by the fixture's JWKS file.
    const controlplane = await createTestControlplane({
      role: 'server',
      model: createReplayModel(["Action: finished(content='ok')"]),
      env: {
        CLAWDIE_AUTH_REQUIRED: 'true',
        CLAWDIE_AUTH_JWKS_FILE: fixture.file,
        CLAWDIE_MAX_STEPS: '3',
      },
    });
    t.after(() => controlplane.close());
    assert.equal(controlplane.auth?.auth?.mode, 'jwt');
    const { audit } = controlplane;
    const base = await controlplane.serve();
    const rowsBefore = (await audit.list({ limit: 100_000 })).length;

    const statuses = new Map<number, number>();
    let retryAfter: string | null = null;
    const junk = ['', 'Bearer nope', 'Basic Zm9vOmJhcg==', 'Bearer a.b.c'];
    let sent = 0;
    const worker = async () => {
      while (sent < REQUESTS) {
        const i = sent++;
        const auth = junk[i % junk.length] as string;
        const response = await fetch(`${base}/v1/tasks`, {
          headers: auth ? { authorization: auth } : {},
        });
        await response.arrayBuffer();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status === 429) retryAfter = response.headers.get('retry-after');
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));

    const added = (await audit.list({ limit: 100_000 })).length - rowsBefore;
    assert.ok(added <= 5, `${REQUESTS} junk requests added ${added} audit rows`);
    assert.equal(statuses.get(401), 30, JSON.stringify([...statuses]));
    assert.equal(statuses.get(429), REQUESTS - 30);
    assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `Retry-After ${retryAfter}`);

    const valid = await fetch(`${base}/v1/tasks`, {
      headers: { authorization: `Bearer ${await fixture.token(['tasks:read'])}` },
    });
    assert.equal(valid.status, 200);
    await valid.arrayBuffer();
    const [first] = await audit.list({ afterSeq: rowsBefore, limit: 1 });
    assert.equal(first?.type, 'auth-failed');
    assert.equal(first?.data.source, '127.0.0.1');
  });
});

// Reproduction: the dashboard login form took unlimited wrong admin tokens, none counted. Failed
// logins now go through the same per-address limiter as the API's bearer failures: aggregated
// audit rows, 429 with Retry-After past the limit, and the right token still gets in.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createAuthFailureLimiter } from '../../controlplane/src/governance/auth/auth-failure-limiter.js';
import { createTestAuditTrail } from '../controlplane/ingress/dashboard/audit-fixture.js';
import {
  ADMIN_TOKEN,
  createDashboardPagesFixture,
} from '../controlplane/ingress/dashboard/dashboard-fixture.js';

const trail = await createTestAuditTrail(0);

describe('dashboard login flood', () => {
  const failures = createAuthFailureLimiter({ audit: trail.audit, limit: 10, windowMs: 60_000 });
  const fixture = createDashboardPagesFixture({
    dashboard: { audit: trail.audit, loginFailures: failures },
  });
  after(async () => {
    await failures.close();
    fixture.close();
    trail.close();
  });

  const login = (token: string) =>
    fixture.app.request('/dashboard/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, next: '/dashboard' }).toString(),
    });

  it('500 wrong tokens: a handful of audit rows, 429 past the limit, and the admin still gets in', async () => {
    const before = (await trail.audit.list({ limit: 10_000 })).length;
    const statuses: number[] = [];
    for (let i = 0; i < 500; i += 1) statuses.push((await login(`wrong-${i}`)).status);
    // The first ten get the form again (200) with "not an admin token".
    assert.equal(statuses.filter((status) => status === 200).length, 10);
    assert.equal(statuses.filter((status) => status === 429).length, 490);
    const throttled = await login('wrong-again');
    assert.equal(throttled.status, 429);
    assert.ok(Number(throttled.headers.get('retry-after')) > 0);
    const rows = (await trail.audit.list({ limit: 10_000 })).length - before;
    assert.ok(rows <= 2, `500 failed logins added ${rows} audit rows`);
    const admin = await login(ADMIN_TOKEN);
    assert.equal(admin.status, 303, 'the right token still logs in');
  });
});

import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { spacedJson } from '../../../../controlplane/src/ingress/dashboard/audit-page.js';
import { createTestAuditTrail } from './audit-fixture.js';
import { createDashboardPagesFixture } from './dashboard-fixture.js';

const trail = await createTestAuditTrail(250);
const fixture = createDashboardPagesFixture({ dashboard: { audit: trail.audit } });
after(() => {
  fixture.close();
  trail.close();
});

describe('dashboard audit log page', () => {
  it('pages through the rows newest first and reports an intact chain', async () => {
    const cookie = await fixture.login();
    const first = await (
      await fixture.app.request('/dashboard/audit', { headers: { cookie } })
    ).text();
    assert.match(first, /data-audit-chain="ok"/);
    assert.match(first, /250 rows verified/);
    const seqs = [...first.matchAll(/<tr id="audit-(\d+)"/g)].map((match) => Number(match[1]));
    assert.equal(seqs.length, 50);
    assert.deepEqual(seqs.slice(0, 2), [250, 249]);
    assert.match(first, /href="\/dashboard\/audit\?before=201"/);
    assert.match(
      first,
      /<a href="\/dashboard\/audit">Audit log<\/a>|aria-current="page">Audit log/,
    );
    const last = await (
      await fixture.app.request('/dashboard/audit?before=51', { headers: { cookie } })
    ).text();
    assert.equal((last.match(/<tr id="audit-/g) ?? []).length, 50);
    assert.match(last, /<tr id="audit-1"/);
    assert.ok(!last.includes('rel="next"'));
  });

  it('filters by task', async () => {
    const cookie = await fixture.login();
    const page = await (
      await fixture.app.request('/dashboard/audit?task=task-a', { headers: { cookie } })
    ).text();
    assert.equal((page.match(/<tr id="audit-/g) ?? []).length, 50);
    const older = await (
      await fixture.app.request('/dashboard/audit?task=task-a&before=99', { headers: { cookie } })
    ).text();
    assert.equal((older.match(/<tr id="audit-/g) ?? []).length, 32);
    assert.ok(!older.includes('rel="next"'));
  });

  it('flags a tampered chain and names the first bad row', async () => {
    const cookie = await fixture.login();
    trail.tamper(7);
    const page = await (
      await fixture.app.request('/dashboard/audit?before=8', { headers: { cookie } })
    ).text();
    assert.match(page, /data-audit-chain="broken" data-first-bad="7"/);
    assert.match(
      page,
      /First bad row: <a href="\/dashboard\/audit\?before=8#audit-7"><strong>row 7<\/strong><\/a> \(edited\)/,
    );
    assert.match(page, /<tr id="audit-7" class="bad-row"/);
  });

  it('is not offered without an audit trail', async () => {
    const bare = createDashboardPagesFixture({ dashboard: {} });
    after(() => bare.close());
    const cookie = await bare.login();
    const response = await bare.app.request('/dashboard/audit', { headers: { cookie } });
    assert.equal(response.status, 404);
    assert.ok(
      !(await (await bare.app.request('/dashboard', { headers: { cookie } })).text()).includes(
        'Audit log',
      ),
    );
  });

  it('writes the data as one line of JSON with a space after each comma and colon, none inside strings', () => {
    const data = { reason: 'otp', note: 'a,b:c', nested: { list: [1, 2], empty: {} }, none: [] };
    const text = spacedJson(data);
    assert.equal(
      text,
      '{"reason": "otp", "note": "a,b:c", "nested": {"list": [1, 2], "empty": {}}, "none": []}',
    );
    assert.deepEqual(JSON.parse(text), data);
  });
});

// The dashboard live view and task page of a needs_user task offer "Take over": the admin gets a
// fresh single-use link and lands on its confirm page, then in the interactive view.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createInputAudit } from '../../../../controlplane/src/browser/takeover/input-audit.js';
import type { TakeoverAppDeps } from '../../../../controlplane/src/browser/takeover/takeover-app-deps.js';
import { createTakeoverFixture } from '../../../support/takeover-fixture.js';
import { createDashboardPagesFixture } from './dashboard-fixture.js';

let takeover: TakeoverAppDeps | undefined;
const fixture = createDashboardPagesFixture({
  dashboard: {},
  takeover: (repository) => {
    takeover = createTakeoverFixture({ repository }).app;
    return takeover;
  },
});
after(() => fixture.close());

describe('dashboard Take over', () => {
  it('shows the control for a needs_user task and lands the admin in the interactive view', async () => {
    await fixture.repository.createTask({
      id: 'needs-1',
      tenant: 'default',
      actor: null,
      instruction: 'log in',
      startUrl: null,
      maxSteps: 3,
      modelName: 'm',
      coordinateMode: '1.5',
      createdAt: Date.now(),
    });
    const cookie = await fixture.login();
    const live = () =>
      fixture.app.request('/dashboard/tasks/needs-1/live', { headers: { cookie } });
    const detail = async () =>
      (await fixture.app.request('/dashboard/tasks/needs-1', { headers: { cookie } })).text();
    assert.doesNotMatch(await (await live()).text(), /data-live-takeover/);
    assert.doesNotMatch(await detail(), /data-live-takeover/, 'no takeover: no button');
    takeover?.registry.open({
      taskId: 'needs-1',
      tenant: 'default',
      reason: 'otp',
      startedAt: Date.now(),
      deadline: Date.now() + 60_000,
      endpoint: null,
      client: null,
      inputs: createInputAudit(() => undefined),
      handBack: () => undefined,
    });
    const page = await (await live()).text();
    assert.match(page, /data-live-takeover/);
    assert.match(page, /needs a person \(otp\)/);
    // The task page offers it too, posting to the same place.
    assert.match(
      await detail(),
      /data-live-takeover>.*needs a person \(otp\).*<form method="post" action="\/dashboard\/tasks\/needs-1\/takeover"><button type="submit">Take over<\/button>/s,
    );
    const taken = await fixture.app.request('/dashboard/tasks/needs-1/takeover', {
      method: 'POST',
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
    });
    assert.equal(taken.status, 303);
    const location = taken.headers.get('location') ?? '';
    assert.match(location, /^\/takeover\/needs-1\/open\?t=/);
    assert.equal((await fixture.app.request(location)).status, 200, 'the landing page');
    const [pathname = '', query = ''] = location.split('?');
    const opened = await fixture.app.request(pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: query,
    });
    assert.equal(opened.status, 303);
    assert.equal(opened.headers.get('location'), '/takeover/needs-1');
    const view = await fixture.app.request('/takeover/needs-1', {
      headers: { cookie: (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '' },
    });
    assert.match(await view.text(), /You are in control/);
  });
});

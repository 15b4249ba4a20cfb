// The takeover link's landing page (GET, never spends the link) tells the supervisor what they
// take on before they commit: the task's instruction, what the model asked for, its screen now
// and how long they have; both takeover pages lay out for a phone (viewport meta).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createInputAudit } from '../../../../controlplane/src/browser/takeover/input-audit.js';
import { createTakeoverRoutes } from '../../../../controlplane/src/browser/takeover/takeover-routes.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { createTaskRepository } from '../../../../controlplane/src/platform/store/task-repository.js';
import { createManualClock } from '../../../support/manual-clock.js';
import { createTakeoverFixture } from '../../../support/takeover-fixture.js';

const database = openDatabase(':memory:');
const repository = createTaskRepository(database.db);
const clock = createManualClock(Date.UTC(2026, 10, 27, 12, 0));
const fixture = createTakeoverFixture({ repository, clock });
const app = createTakeoverRoutes(fixture.app);
const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);
let shots = 0;

async function needsUser(id: string, summary: string | null) {
  await repository.createTask({
    id,
    tenant: 'acme',
    actor: 'tenant:acme/runner',
    instruction: 'Buy the <b>red</b> shoes in size 42',
    startUrl: null,
    maxSteps: 3,
    modelName: 'replay',
    coordinateMode: '1.5',
    createdAt: clock.now(),
  });
  fixture.app.registry.open({
    taskId: id,
    tenant: 'acme',
    reason: 'call_user',
    summary,
    screenshot: async () => {
      shots += 1;
      return jpeg;
    },
    startedAt: clock.now(),
    deadline: clock.now() + 4 * 60_000 + 10_000,
    endpoint: null,
    client: null,
    inputs: createInputAudit(() => undefined),
    handBack: () => undefined,
  });
  return fixture.app.links.mint({ task: id, tenant: 'acme', user: 'telegram-supervisors' }).token;
}

describe('takeover landing page', () => {
  it('shows the instruction, the model’s question, the screen now and the time left', async () => {
    const token = await needsUser('t-land', 'Which size: 42 or 43?');
    const page = await (await app.request(`/t-land/open?t=${token}`)).text();
    assert.match(page, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
    assert.match(
      page,
      /data-takeover-instruction>Buy the &lt;b&gt;red&lt;\/b&gt; shoes in size 42</,
    );
    assert.match(
      page,
      /The model asks<\/dt><dd class="question" data-takeover-question>Which size: 42 or 43\?/,
    );
    assert.match(page, /data-takeover-left-ms="250000">hand back within 4 min</);
    const src = /data-takeover-preview[^>]* src="([^"]+)"/.exec(page)?.[1] ?? '';
    assert.equal(src, `/takeover/t-land/open/screen.jpg?t=${token}`);
    const picture = src.replace(/^\/takeover/, ''); // the routes alone, not mounted
    const shot = await app.request(picture);
    assert.equal(shot.status, 200);
    assert.equal(shot.headers.get('content-type'), 'image/jpeg');
    assert.deepEqual(Buffer.from(await shot.arrayBuffer()), jpeg);
    await app.request(picture);
    assert.equal(shots, 1, 'a reload within 2 s reuses the screenshot');
    assert.equal((await app.request('/t-land/open/screen.jpg?t=forged')).status, 403);
    // Neither the page nor its picture spent the link.
    const opened = await app.request('/t-land/open', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ t: token }).toString(),
    });
    assert.equal(opened.status, 303);
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const view = await (await app.request('/t-land', { headers: { cookie } })).text();
    assert.match(view, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
    assert.match(view, /data-takeover-left-ms="250000">hand back within 4 min</);
    assert.doesNotMatch(view, /\d{4}-\d\d-\d\dT/, 'no raw ISO deadline');
  });

  it('without a question says only why, and without a screenshot shows none', async () => {
    const token = await needsUser('t-plain', null);
    const active = fixture.app.registry.get('t-plain');
    if (active) active.screenshot = undefined;
    const page = await (await app.request(`/t-plain/open?t=${token}`)).text();
    assert.match(page, /needs a person \(call user\)/);
    assert.doesNotMatch(page, /data-takeover-question|data-takeover-preview/);
  });
});

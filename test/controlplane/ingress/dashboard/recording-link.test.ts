import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { after, describe, it } from 'node:test';
import { recordingPath } from '../../../../controlplane/src/browser/recording/task-recorder.js';
import { createDashboardFixture } from './dashboard-fixture.js';

// Recordings live in the controlplane's data dir, where the dashboard looks for them.
const fixture = await createDashboardFixture();
const { dataDir } = fixture;
after(() => fixture.close());

describe('dashboard: task recording link', () => {
  it('links and serves recording.mp4 only when the file exists', async () => {
    const cookie = await fixture.login();
    const get = (path: string) => fixture.app.request(path, { headers: { cookie } });
    const taskId = await fixture.runTask();
    const base = `/dashboard/tasks/${taskId}`;
    assert.doesNotMatch(await (await get(base)).text(), /recording\.mp4/);
    assert.equal((await get(`${base}/recording.mp4`)).status, 404);

    const path = recordingPath(dataDir, taskId);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, Buffer.from('fake mp4 bytes'));
    assert.match(await (await get(base)).text(), /href="[^"]*\/recording\.mp4">Recording</);
    const video = await get(`${base}/recording.mp4`);
    assert.equal(video.status, 200);
    assert.equal(video.headers.get('content-type'), 'video/mp4');
    assert.equal(await video.text(), 'fake mp4 bytes');
  });
});

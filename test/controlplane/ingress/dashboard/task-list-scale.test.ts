import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDashboardFixture } from './dashboard-fixture.js';

const fixture = await createDashboardFixture();
after(() => fixture.close());
let cookie = '';
const statuses = ['finished', 'error', 'aborted', 'max_steps'] as const;

async function timed(path: string) {
  const started = performance.now();
  const response = await fixture.app.request(path, { headers: { cookie } });
  const text = await response.text();
  return { ms: performance.now() - started, text, status: response.status };
}

describe('dashboard task list with 10 000 tasks', () => {
  before(async () => {
    cookie = await fixture.login();
    for (let i = 0; i < 10_000; i++) {
      const id = `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`;
      await fixture.repository.createTask({
        id,
        instruction: i === 4242 ? 'Find the 100% cotton_shirt price' : `Look up order number ${i}`,
        startUrl: null,
        maxSteps: 30,
        modelName: 'ui-tars',
        coordinateMode: '1.5',
        createdAt: 1_700_000_000_000 + i * 1000,
      });
      await fixture.repository.endTask(id, {
        status: statuses[i % 4] ?? 'finished',
        summary: null,
        resultData: null,
        errorCode: null,
        errorMessage: null,
        stepCount: i % 30,
        finalScreenshotPath: null,
        endedAt: 1_700_000_000_000 + i * 1000 + 5000,
      });
    }
  });

  it('renders the first page in under a second', async () => {
    await timed('/dashboard'); // warm up the prepared paths
    const first = await timed('/dashboard');
    assert.equal(first.status, 200);
    assert.ok(first.ms < 1000, `took ${first.ms.toFixed(0)} ms`);
    assert.match(first.text, /1–50 of 10000/);
    assert.equal((first.text.match(/<tr>/g) ?? []).length, 51);
    assert.match(first.text, /Look up order number 9999/);
  });

  it('filters, searches and pages in under a second each', async () => {
    const filtered = await timed('/dashboard?status=error');
    assert.match(filtered.text, /1–50 of 2500/);
    const search = await timed('/dashboard?q=100%25+cotton_');
    assert.match(search.text, /1–1 of 1/);
    assert.match(search.text, /100% cotton_shirt/);
    const last = await timed('/dashboard?page=200');
    assert.match(last.text, /9951–10000 of 10000/);
    assert.match(last.text, /Look up order number 0</);
    for (const run of [filtered, search, last])
      assert.ok(run.ms < 1000, `took ${run.ms.toFixed(0)} ms`);
  });

  it('treats % and _ in a search literally', async () => {
    const none = await timed('/dashboard?q=%25%25%25');
    assert.match(none.text, /No tasks match/);
  });
});

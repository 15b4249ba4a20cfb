// keep_session with real clones (root): a follow-up task continues in the clone its predecessor
// kept — the cookie and localStorage the first page set are still there — while a fresh task
// does not see them; refusals of the kept clone's proxy are audited to the task holding it now;
// and closing the controlplane destroys the kept clone.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { linuxDriverMissing } from '../hostd/support/linux-harness.js';
import { skipFile } from '../support/capabilities.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { submit } from '../support/submit-task.js';
import {
  closeServer,
  type HostdControlplane,
  serveOnLoopback,
  settledLeftovers,
  startHostdControlplane,
} from './support/hostd-controlplane.js';

const marker = `kept-${randomBytes(6).toString('hex')}`;
const html = (body: string) =>
  new Response(`<!doctype html><meta charset="utf-8">${body}`, {
    headers: { 'content-type': 'text/html' },
  });
/** What each visit of /check carried: the cookie (request header) and localStorage (reported). */
const visits: { cookie: boolean; storage?: boolean }[] = [];
const site = (request: Request) => {
  const { pathname, port, searchParams } = new URL(request.url);
  if (pathname === '/set')
    return html(
      `<title>set</title><script>document.cookie='kept=${marker}; path=/'; localStorage.setItem('kept', '${marker}');</script><h1>stored</h1>`,
    );
  if (pathname === '/check') {
    visits.push({ cookie: (request.headers.get('cookie') ?? '').includes(marker) });
    return html(
      `<title>check</title><h1>check</h1><img src="http://127.0.0.2:${port}/pixel.png"><script>fetch('/report?storage=' + (localStorage.getItem('kept') === '${marker}'));</script>`,
    );
  }
  if (pathname === '/report') {
    const last = visits.at(-1);
    if (last) last.storage = searchParams.get('storage') === 'true';
  }
  return html('<title>other</title>');
};

/** The last /check visit once its page reported its storage. */
async function lastVisit() {
  for (let i = 0; i < 50 && visits.at(-1)?.storage === undefined; i += 1)
    await new Promise((resolve) => setTimeout(resolve, 100));
  return visits.at(-1);
}

const missing = linuxDriverMissing();

if (!skipFile('kept browser sessions in hostd clones (real Linux driver)', missing)) {
  describe('kept browser sessions in hostd clones (real Linux driver)', () => {
    let h: HostdControlplane;
    let served: Awaited<ReturnType<typeof serveOnLoopback>>;
    before(async () => {
      served = await serveOnLoopback(site);
      h = await startHostdControlplane({ concurrency: 3, sites: [new URL(served.url).host] });
    });
    after(async () => {
      await h?.close();
      closeServer(served);
    });
    const auditOf = async (taskId: string) =>
      await h.controlplane.audit.list({ taskId, limit: 1000 });

    it('continues in the kept clone, a fresh task does not, and close destroys it', async () => {
      const tasks = h.controlplane.createTasks(
        createPerTaskScriptModel(["Action: finished(content='ok')"]),
      );
      const domains = [new URL(served.url).host];
      const first = await (
        await submit(tasks, {
          instruction: 'store something',
          start_url: `${served.url}/set`,
          domains,
          keep_session: true,
        })
      ).done;
      assert.equal(first.status, 'finished', JSON.stringify(first));
      assert.match(first.session_id ?? '', /^ks_/);
      assert.equal((await h.manager.list()).length, 1, 'the clone stays');

      const check = { instruction: 'check', start_url: `${served.url}/check` };
      const follow = await (
        await submit(tasks, { ...check, session_id: first.session_id as string })
      ).done;
      assert.equal(follow.status, 'finished', JSON.stringify(follow));
      assert.deepEqual(await lastVisit(), { cookie: true, storage: true }, 'same browser');
      const fresh = await (await submit(tasks, { ...check, domains })).done;
      assert.equal(fresh.status, 'finished', JSON.stringify(fresh));
      assert.deepEqual(
        await lastVisit(),
        { cookie: false, storage: false },
        'a fresh clone has neither',
      );

      const created = (await auditOf(first.trace_id)).filter((row) => row.type === 'clone-created');
      assert.equal(created.length, 1);
      assert.equal(
        (await auditOf(follow.trace_id)).filter((row) => row.type === 'clone-created').length,
        0,
      );
      assert.ok((await auditOf(follow.trace_id)).some((row) => row.type === 'browser-resumed'));
      // The kept clone's proxy refused the check page's image while the follow-up held it.
      assert.ok(
        (await auditOf(follow.trace_id)).some(
          (row) => row.type === 'egress-refused' && row.data.host === '127.0.0.2',
        ),
        'refusals of the kept clone go to the task holding it',
      );
      assert.equal(
        (await auditOf(follow.trace_id)).find((row) => row.type === 'clone-destroyed')?.data.clone,
        created[0]?.data.clone,
        'the follow-up, which did not keep it, destroyed the same clone',
      );

      const kept = await (
        await submit(tasks, {
          instruction: 'keep',
          start_url: `${served.url}/set`,
          domains,
          keep_session: true,
        })
      ).done;
      assert.match(kept.session_id ?? '', /^ks_/);
      await tasks.close();
      assert.deepEqual(await h.manager.list(), [], 'closing the service destroyed the kept clone');
      assert.ok(
        (await auditOf(kept.trace_id)).some(
          (row) => row.type === 'kept-browser-ended' && row.data.reason === 'shutdown',
        ),
      );
      assert.deepEqual(await settledLeftovers(), []);
    });
  });
}

// Issue 27: live view, takeover and trace files of a task reach the replica that runs it from any
// replica. Two controlplanes on one PostgreSQL database serve HTTP on loopback; the task runs on
// A in a real Chromium and waits for a person (call_user); everything below goes through B.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadAuditKey } from '../../controlplane/src/governance/audit/audit-key.js';
import {
  deriveForwardKey,
  signForward,
} from '../../controlplane/src/ingress/http/replica-forward/forward-signature.js';
import { requires } from '../support/capabilities.js';
import { readFrames } from './dashboard-multipart.js';
import { ADMIN_TOKEN, startReplicaPair } from './support/replica-pair.js';
import { until } from './takeover-supervisor.js';

describe(
  'task routes forwarded to the replica that runs the task',
  requires('postgres', 'chromium'),
  () => {
    let pair: Awaited<ReturnType<typeof startReplicaPair>>;
    let taskId = '';
    const bearer = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const viaB = (path: string, init: RequestInit = {}) =>
      fetch(`${pair.urlB}${path}`, { redirect: 'manual', ...init });
    const status = async () => (await pair.a.repository.getTask(taskId))?.status;

    before(async () => {
      pair = await startReplicaPair();
      const started = await fetch(`${pair.urlA}/v1/tasks`, {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: JSON.stringify({ instruction: 'type the word', start_url: `${pair.site.url}/form` }),
      });
      assert.equal(started.status, 202, await started.clone().text());
      taskId = ((await started.json()) as { trace_id: string }).trace_id;
      await until('needs_user on A', async () => (await status()) === 'needs_user', 60_000);
      // Everything below reads A's task through B: it must be A that runs it.
      const owner = (await pair.a.repository.getTask(taskId))?.ownerInstance;
      assert.equal(owner, pair.a.replicas?.self, 'the task runs on A');
    });
    after(async () => {
      await pair?.close();
    });

    it('streams the live view of A’s task through B’s dashboard', async () => {
      const login = await viaB('/dashboard/login', {
        method: 'POST',
        body: new URLSearchParams({ token: ADMIN_TOKEN, next: '/dashboard' }),
      });
      assert.equal(login.status, 303);
      const cookie = login.headers.get('set-cookie')?.split(';')[0] ?? '';
      const page = await viaB(`/dashboard/tasks/${taskId}/live`, { headers: { cookie } });
      assert.match(await page.text(), /data-live-screen/, 'B shows the live feed of A’s task');
      const feed = await viaB(`/dashboard/tasks/${taskId}/screencast`, { headers: { cookie } });
      assert.equal(feed.status, 200);
      const frames = await readFrames(feed, 4000);
      assert.ok(frames.length >= 1, 'a frame arrived through B');
      assert.deepEqual([...(frames[0] ?? Buffer.alloc(2)).subarray(0, 2)], [0xff, 0xd8]);
      assert.ok(pair.seenByA.includes(`GET /dashboard/tasks/${taskId}/screencast`));
    });

    it('takes over through B: the link opens A’s interactive view and input reaches the page', async () => {
      const issued = await viaB(`/v1/tasks/${taskId}/takeover`, {
        method: 'POST',
        headers: bearer,
      });
      assert.equal(issued.status, 200, await issued.clone().text());
      const link = new URL(((await issued.json()) as { url: string }).url);
      const token = link.searchParams.get('t') ?? '';
      // Through the load balancer: the link's path on replica B.
      const landing = await viaB(`${link.pathname}${link.search}`);
      assert.equal(landing.status, 200);
      const opened = await viaB(`/takeover/${taskId}/open`, {
        method: 'POST',
        body: new URLSearchParams({ t: token }),
      });
      assert.equal(opened.status, 303, await opened.clone().text());
      const cookie = opened.headers.get('set-cookie')?.split(';')[0] ?? '';
      const view = await viaB(`/takeover/${taskId}`, { headers: { cookie } });
      assert.match(await view.text(), /data-takeover-screen/);
      const input = (events: unknown[]) =>
        viaB(`/takeover/${taskId}/input`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ events }),
        });
      const click = [
        { type: 'mouse', action: 'down', x: 0.5, y: 0.5, button: 'left', click_count: 1 },
        { type: 'mouse', action: 'up', x: 0.5, y: 0.5, button: 'left', click_count: 1 },
      ];
      assert.equal((await input(click)).status, 200);
      assert.equal((await input([{ type: 'text', text: 'forwarded' }])).status, 200);
      await until('the typed word on the page', async () =>
        pair.site.requests.includes('/typed?v=forwarded'),
      );
      const back = await viaB(`/takeover/${taskId}/hand-back`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ note: 'typed it' }),
      });
      assert.equal(back.status, 200, await back.clone().text());
      await until('the task ended on A', async () => (await status()) === 'finished', 60_000);
      // A audited the link as issued to the caller B authorized.
      const issuedRow = (
        await pair.a.audit.list({ taskId, type: 'takeover-link-issued', limit: 10 })
      )[0];
      assert.equal(issuedRow?.actor, 'tenant:default/admin-token');
    });

    it('serves the step screenshot and the export of A’s finished task through B', async () => {
      const step = await pair.a.repository.getStep(taskId, 1);
      const shot = await viaB(`/v1/tasks/${taskId}/steps/1/screenshot`, { headers: bearer });
      assert.equal(shot.status, 200);
      assert.deepEqual(
        Buffer.from(await shot.arrayBuffer()),
        readFileSync(step?.screenshotPath ?? ''),
      );
      assert.ok(pair.seenByA.includes(`GET /v1/tasks/${taskId}/steps/1/screenshot`), 'A served it');
      const login = await viaB('/dashboard/login', {
        method: 'POST',
        body: new URLSearchParams({ token: ADMIN_TOKEN, next: '/dashboard' }),
      });
      const cookie = login.headers.get('set-cookie')?.split(';')[0] ?? '';
      const report = await viaB(`/dashboard/tasks/${taskId}/export`, { headers: { cookie } });
      assert.equal(report.status, 200);
      assert.match(await report.text(), /data:image\/jpeg;base64,/);
      assert.ok(pair.seenByA.includes(`GET /dashboard/tasks/${taskId}/export`), 'A exported it');
    });

    it('refuses forged forward headers 401 and audits them', async () => {
      const target = `/v1/tasks/${taskId}`;
      const forged = async (headers: Record<string, string>) => {
        const response = await fetch(`${pair.urlA}${target}`, {
          headers: { ...bearer, ...headers },
        });
        return { status: response.status, code: ((await response.json()) as any).error?.code };
      };
      const admin = {
        tenant: 'default',
        subject: 'x',
        scopes: ['admin'] as const,
        via: 'token' as const,
      };
      const fromB = {
        from: pair.b.replicas?.self ?? '',
        to: pair.a.replicas?.self ?? '',
        client: '1.2.3.4',
      };
      const key = deriveForwardKey(loadAuditKey(join(pair.dirA, 'keys', 'audit.key')).key);
      const request = { method: 'GET', target, body: null };
      // A client claiming a principal without any signature.
      const principal = Buffer.from(JSON.stringify(admin)).toString('base64url');
      assert.deepEqual(await forged({ 'x-clawdie-forward-principal': principal }), {
        status: 401,
        code: 'FORWARD_SIGNATURE_INVALID',
      });
      // Signed with another key.
      const wrong = signForward(Buffer.alloc(32, 7), request, {
        ...fromB,
        at: Date.now(),
        principal: admin,
      });
      assert.equal((await forged(wrong)).code, 'FORWARD_SIGNATURE_INVALID');
      // The right key, a minute old.
      const stale = signForward(key, request, {
        ...fromB,
        at: Date.now() - 60_000,
        principal: admin,
      });
      assert.deepEqual(await forged(stale), { status: 401, code: 'FORWARD_STALE' });
      // A valid forward works once; its replay is refused.
      const valid = signForward(key, request, { ...fromB, at: Date.now(), principal: admin });
      assert.equal((await forged(valid)).status, 200);
      assert.deepEqual(await forged(valid), { status: 401, code: 'FORWARD_REPLAYED' });
      const rows = await pair.a.audit.list({ type: 'auth-failed', limit: 100 });
      const codes = rows.map((row) => (row.data as { code?: string }).code);
      for (const code of ['FORWARD_SIGNATURE_INVALID', 'FORWARD_STALE', 'FORWARD_REPLAYED'])
        assert.ok(codes.includes(code), `${code} audited`);
    });

    it('answers REPLICA_GONE for the files of a task whose replica is gone', async () => {
      const step = await pair.a.repository.getStep(taskId, 1);
      await pair.closeA();
      await pair.a.close();
      // B cannot read A's data dir (another machine): here, it is gone with A.
      rmSync(join(pair.dirA, 'traces'), { recursive: true, force: true });
      assert.ok(step?.screenshotPath);
      const response = await viaB(`/v1/tasks/${taskId}/steps/1/screenshot`, { headers: bearer });
      const body = (await response.json()) as { error: { code: string; message: string } };
      assert.equal(response.status, 410);
      assert.equal(body.error.code, 'REPLICA_GONE');
      assert.match(body.error.message, /data dir/);
    });
  },
);

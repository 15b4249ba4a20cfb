// Saved sessions end to end, in real hostd clones (root): a first task's clone logs into the
// login-wall site, the session is saved as a profile, and a second task in a fresh clone with
// credential_mode session starts logged in — it never requests /login, its page's own script reads
// the saved IndexedDB note, and no cookie value, password, localStorage note or IndexedDB value
// reaches rows, files, logs or model requests.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Action,
  actionsResponseSchema,
  elementsResponseSchema,
  pageStateSchema,
} from '@clawdie/kit/jail-api';
import type { JailEndpoint } from '../../controlplane/src/browser/provider/browser-provider.js';
import { loopbackPrincipal } from '../../controlplane/src/governance/auth/scopes.js';
import { openDatabase } from '../../controlplane/src/platform/store/database.js';
import { linuxDriverMissing } from '../hostd/support/linux-harness.js';
import { skipFile } from '../support/capabilities.js';
import { capturingLogger } from '../support/capturing-logger.js';
import { loginThroughJail } from '../support/login-wall-login.js';
import { type LoginWallSite, startLoginWallSite } from '../support/login-wall-site.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { submit } from '../support/submit-task.js';
import { type HostdControlplane, startHostdControlplane } from './support/hostd-controlplane.js';
import { everything, leaksOf, recordingModel } from './support/leak-search.js';

/** Drives a clone's jail-service directly, as the test's "supervisor". */
function jailDriver(service: JailEndpoint) {
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${service.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
    });
    assert.equal(response.status, 200, path);
    return response.json();
  };
  return {
    run: async (actions: Action[]) =>
      actionsResponseSchema.parse(
        await call('/actions', { method: 'POST', body: JSON.stringify({ actions }) }),
      ),
    elements: async () => elementsResponseSchema.parse(await call('/elements')),
    title: async () => pageStateSchema.parse(await call('/state')).title,
  };
}

async function until<T>(read: () => T | undefined, what: string, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const missing = linuxDriverMissing();

if (!skipFile('saved sessions in hostd clones (real Linux driver)', missing)) {
  describe('saved sessions in hostd clones (real Linux driver)', () => {
    let h: HostdControlplane;
    let site: LoginWallSite;
    const { logger, lines: logLines } = capturingLogger('trace');
    const modelRequests: string[] = [];
    before(async () => {
      site = await startLoginWallSite();
      h = await startHostdControlplane({
        concurrency: 2,
        sites: [new URL(site.url).host],
        logger,
        policyExtra: `credentials:\n  modes: [none, session]\n  sessions:\n    - { name: shop, origins: ["${site.url}"] }\n`,
      });
    });
    after(async () => {
      await h?.close();
      await site?.close();
    });

    it('saves a logged-in clone and starts a second task in a fresh clone already signed in', async () => {
      const waiting = h.controlplane.createTasks(
        recordingModel(createPerTaskScriptModel(['Action: wait()']), modelRequests),
      );
      const first = await submit(waiting, {
        instruction: 'wait while the supervisor signs in',
        start_url: `${site.url}/login`,
        domains: [new URL(site.url).host],
        max_steps: 100,
      });
      const lease = await until(() => h.controlplane.source.browsers.get(first.taskId), 'lease');
      assert.ok(lease.service);
      const supervisor = jailDriver(lease.service);
      await loginThroughJail(supervisor, site);
      const stored = Date.now() + 10_000;
      while ((await supervisor.title()) !== 'Account · idb stored') {
        assert.ok(Date.now() < stored, 'the account page stored its IndexedDB note');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const saved = await h.controlplane.sessions.saveSessionFromTask(
        { taskId: first.taskId, name: 'shop', origins: [site.url] },
        loopbackPrincipal,
      );
      assert.equal(saved.cookieCount >= 1, true);
      waiting.abort(first.taskId);
      await first.done;
      await waiting.close();

      const seen = site.requests.length;
      const finishing = h.controlplane.createTasks(
        recordingModel(
          createPerTaskScriptModel(["Action: finished(content='signed in')"]),
          modelRequests,
        ),
      );
      const second = await submit(finishing, {
        instruction: 'open the account page',
        start_url: `${site.url}/account`,
        domains: [new URL(site.url).host],
        credential_mode: 'session',
        session: 'shop',
        success_criteria: { url_matches: '*/account' },
      });
      const result = await second.done;
      await finishing.close();
      assert.equal(result.status, 'finished', JSON.stringify(result));
      const paths = site.requests.slice(seen).filter((request) => request.path !== '/favicon.ico');
      assert.deepEqual(
        paths.map((request) => [request.path, request.signedIn]),
        [['/account', true]],
        'the fresh clone went straight to /account, signed in, never to /login',
      );
      await until(() => (site.idbReports().length === 2 ? true : undefined), 'IndexedDB reports');
      assert.deepEqual(
        site.idbReports(),
        ['stored', 'read'],
        "the fresh clone's page read the saved IndexedDB note with its own first script",
      );
      const audit = await h.controlplane.audit.list({ taskId: second.taskId, limit: 100 });
      const injected = audit.find((row) => row.type === 'session-injected');
      assert.deepEqual(injected?.data, {
        tenant: 'default',
        session: 'shop',
        origins: [site.url],
        cookie_count: saved.cookieCount,
        idb_database_count: 1,
        idb_record_count: 1,
      });
      const savedRow = (await h.controlplane.audit.list({ taskId: first.taskId, limit: 100 })).find(
        (row) => row.type === 'session-saved',
      );
      assert.equal(savedRow?.data.idb_record_count, 1);
      const order = audit.map((row) => row.type);
      // Admission is audited to the task first (issue 20), then the clone, the injection, the start.
      assert.deepEqual(order.slice(0, 4), [
        'policy-decided',
        'clone-created',
        'session-injected',
        'task-started',
      ]);

      const database = openDatabase(h.controlplane.config.databasePath);
      const haystack = everything({
        db: database.db,
        dataDir: h.controlplane.config.dataDir,
        logLines,
        modelRequests,
        extra: [result, await h.controlplane.sessions.list(loopbackPrincipal)],
      });
      database.close();
      assert.ok(haystack.length > 10, 'rows and files');
      assert.ok(modelRequests.length > 0, 'model requests');
      assert.ok(logLines.length > 0, 'log lines');
      const secrets = [...site.issuedCookies(), site.password, site.storageNote, site.idbNote];
      assert.deepEqual(leaksOf(haystack, secrets), [], 'no session value leaked');
    });
  });
}

// Two controlplane replicas on one PostgreSQL database, each serving HTTP on loopback with its
// own data dir (the second holds a copy of the first's audit key, as docs/operations.md says):
// A runs tasks in a real Chromium (a local jail-service), B has no browser of its own. A's HTTP
// requests are recorded, so a test sees which replica answered.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import type { VisionModel } from '../../../controlplane/src/agent/model/chat-types.js';
import { startLocalJailService } from '../../../controlplane/src/browser/provider/local-jail-service.js';
import { createTestControlplane, type TestControlplane } from '../../support/controlplane.js';
import { createPerTaskScriptModel } from '../../support/per-task-script-model.js';
import { startPostgres } from '../../support/postgres/start-postgres.js';
import { silentLogger } from '../../support/silent-logger.js';
import { startStaticSite } from '../../support/static-site.js';
import { testLauncher } from '../../support/test-launcher.js';

export const ADMIN_TOKEN = 'replica-forward-admin-token-0123456789';

/** A page that is one big text field reporting what it holds to the site (`/typed?v=…`). */
const formPage = `<!doctype html><title>form</title><input data-field style="position:fixed;inset:0;width:100%;height:100%;font-size:40px" oninput="fetch('/typed?v='+encodeURIComponent(this.value))">`;

/** Serves `controlplane` on loopback, recording every request path it answers. */
async function serveRecorded(controlplane: TestControlplane, seen: string[]) {
  const server = createAdaptorServer({
    fetch: (request: Request, env: unknown) => {
      seen.push(`${request.method} ${new URL(request.url).pathname}`);
      return controlplane.app.fetch(request, env);
    },
  }) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await controlplane.listening(url);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ReplicaPairOptions {
  /** The model of both replicas (default: call_user, then finished). */
  model?: VisionModel;
  /**
   * Task slots A's one browser reports (default 1). Keeping a browser needs a slot left free, so
   * kept-session tests claim 2; they run one task at a time.
   */
  slotsA?: number;
}

export async function startReplicaPair(options: ReplicaPairOptions = {}) {
  const cleanup: (() => Promise<void> | void)[] = [];
  const close = async () => {
    for (const step of cleanup.reverse()) await Promise.resolve(step()).catch(() => undefined);
  };
  try {
    const postgres = await startPostgres();
    cleanup.push(() => postgres.stop());
    const databaseUrl = await postgres.createDatabase();
    const site = await startStaticSite({ '/form': formPage, '/typed': 'ok' });
    cleanup.push(() => site.close());
    const jail = await startLocalJailService({
      egressProxyUrl: null,
      env: { ...process.env },
      logger: silentLogger,
      launcher: testLauncher,
    });
    cleanup.push(() => jail.stop());
    const root = mkdtempSync(join(tmpdir(), 'clawdie-forward-'));
    cleanup.push(() => rmSync(root, { recursive: true, force: true }));
    const policyDir = join(root, 'policies');
    mkdirSync(policyDir);
    writeFileSync(
      join(policyDir, 'default.yaml'),
      `tenant: default\ndomains: { allow: ["${new URL(site.url).host}"] }\nmax_steps: 5\nhandoff: { on: [call_user], timeout_s: 120, on_timeout: abort }\n`,
    );
    const env = (dataDir: string) => ({
      CLAWDIE_DATABASE_URL: databaseUrl,
      CLAWDIE_DATA_DIR: dataDir,
      CLAWDIE_POLICY_DIR: policyDir,
      CLAWDIE_ADMIN_TOKEN: ADMIN_TOKEN,
      CLAWDIE_AUTH_REQUIRED: 'true',
      CLAWDIE_AUTH_FAILURE_LIMIT: '1000',
    });
    const model =
      options.model ??
      createPerTaskScriptModel([
        "Action: call_user(content='Please type the word.')",
        "Action: finished(content='done')",
      ]);
    const dirA = join(root, 'a');
    const a = await createTestControlplane({
      role: 'server',
      browsers: 'config',
      model,
      env: { ...env(dirA), CLAWDIE_JAIL_URL: jail.url, CLAWDIE_JAIL_TOKEN: jail.token },
      ...(options.slotsA ? { browserSlots: options.slotsA } : {}),
    });
    cleanup.push(() => a.close());
    const dirB = join(root, 'b');
    mkdirSync(join(dirB, 'keys'), { recursive: true, mode: 0o700 });
    copyFileSync(join(dirA, 'keys', 'audit.key'), join(dirB, 'keys', 'audit.key'));
    // No browser slot: B never claims a queued task from the shared queue, so every task these
    // tests start runs on A (with a slot, B once took the task first on a busy host and ran it on
    // its fake browser: every route then answered from B).
    const b = await createTestControlplane({
      role: 'server',
      model,
      env: env(dirB),
      browserSlots: 0,
    });
    cleanup.push(() => b.close());
    const seenByA: string[] = [];
    const servedA = await serveRecorded(a, seenByA);
    cleanup.push(servedA.close);
    const urlB = await b.serve();
    return {
      a,
      b,
      urlA: servedA.url,
      urlB,
      site,
      jail,
      dirA,
      seenByA,
      closeA: servedA.close,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

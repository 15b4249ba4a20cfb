// Device pixel ratio 2, screenshots, /elements boxes, and close() leaving no Chromium behind.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { screenshotHeaders } from '@clawdie/kit/jail-api';
import sharp from 'sharp';
import { requires } from '../support/capabilities.js';
import { chromiumDescendants, userDataDirOf, waitForExit } from '../support/chromium-processes.js';
import { htmlPage, refusedUrl, type StaticSite, startStaticSite } from '../support/static-site.js';
import { fixtureRoutes } from './fixture-pages.js';
import { type JailClient, startTestJail, type TestJail } from './jail-harness.js';

const at = (left: number, top: number, extra = '') =>
  `style="position:absolute;left:${left}px;top:${top}px;${extra}"`;

/** Interactive elements (listed) and invisible ones (not listed); the page reports its rects. */
const elementsPage = htmlPage(
  'elements',
  `<a id="link" href="/a" ${at(10, 10)}>Link
     text   here</a>
<label id="lbl" for="name" ${at(10, 60)}>Your name</label>
<input id="name" ${at(120, 60, 'width:150px')}>
<input id="search" placeholder="Search here" ${at(10, 100)}>
<input id="named" name="email" ${at(10, 130)}>
<input id="aria" aria-label="Aria name" placeholder="ignored" ${at(300, 130)}>
<select id="sel" ${at(10, 170)}><option>One</option><option selected>Two</option></select>
<textarea id="ta" ${at(10, 200)}>hello</textarea>
<details ${at(10, 270)}><summary id="sum">More</summary>hidden text</details>
<div id="rb" role="button" ${at(10, 310, 'width:80px;height:20px')}>Role button</div>
<div id="oc" onclick="void 0" ${at(100, 310, 'width:80px;height:20px')}>Clickable</div>
<div id="ce" contenteditable ${at(200, 310, 'width:80px;height:20px')}>Edit</div>
<button id="btn" ${at(300, 200, 'width:100px;height:50px')}>Click   me</button>
<button id="long" ${at(10, 350, 'width:780px')}>${'word '.repeat(60)}</button>
<button id="dis" disabled ${at(10, 400)}>Disabled</button>
<button id="edge" ${at(780, 580, 'width:100px;height:100px')}>Edge</button>
<input id="hidden" type="hidden">
<button id="none" style="display:none">none</button>
<button id="invisible" ${at(10, 450, 'visibility:hidden')}>invisible</button>
<button id="transparent" ${at(100, 450, 'opacity:0')}>transparent</button>
<button id="below" ${at(10, 2000)}>below</button>
<button id="outside" ${at(-500, 10, 'width:100px')}>outside</button>
<button id="zero" ${at(10, 500, 'width:0;height:0;padding:0;border:0')}></button>
<script>
const listed = ['link','lbl','name','search','named','aria','sel','ta','sum','rb','oc','ce','btn','long','dis','edge'];
const rects = {};
for (const id of listed) {
  const r = document.getElementById(id).getBoundingClientRect();
  rects[id] = { x: r.x, y: r.y, width: r.width, height: r.height };
}
document.title = JSON.stringify(rects);
</script>`,
);

describe(
  'jail-service geometry at device pixel ratio 2 (real Chromium)',
  requires('chromium'),
  () => {
    let site: StaticSite;
    let jail: TestJail;
    let client: JailClient;

    before(async () => {
      site = await startStaticSite({
        ...fixtureRoutes(await refusedUrl()),
        '/elements': elementsPage,
      });
      jail = await startTestJail({
        CLAWDIE_JAIL_VIEWPORT: '800x600',
        CLAWDIE_JAIL_DEVICE_SCALE_FACTOR: '2',
        CLAWDIE_JAIL_START_URL: `${site.url}/scroll`,
      });
      client = jail.client;
    });
    after(async () => {
      await jail?.close();
      await site?.close();
    });

    it('opens the start URL', async () => {
      assert.equal((await client.state()).url, `${site.url}/scroll`);
    });

    it('returns a JPEG of viewport × DPR pixels with its geometry in the headers', async () => {
      const { response, jpeg } = await client.screenshot();
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'image/jpeg');
      const header = (name: string) => response.headers.get(name);
      assert.equal(header(screenshotHeaders.viewportWidth), '800');
      assert.equal(header(screenshotHeaders.viewportHeight), '600');
      assert.equal(header(screenshotHeaders.devicePixelRatio), '2');
      assert.equal(header(screenshotHeaders.imageWidth), '1600');
      assert.equal(header(screenshotHeaders.imageHeight), '1200');
      const metadata = await sharp(jpeg).metadata();
      assert.equal(metadata.format, 'jpeg');
      assert.equal(metadata.width, 1600);
      assert.equal(metadata.height, 1200);
    });

    it('uses ?quality= over the configured default quality', async () => {
      const low = (await client.screenshot('?quality=5')).jpeg.length;
      const high = (await client.screenshot('?quality=95')).jpeg.length;
      const byDefault = (await client.screenshot()).jpeg.length;
      const at80 = (await client.screenshot('?quality=80')).jpeg.length;
      assert.ok(low < byDefault && byDefault < high, `${low} < ${byDefault} < ${high}`);
      assert.equal(byDefault, at80);
    });

    it('clicks at CSS coordinates, not device pixels', async () => {
      await client.run([{ type: 'navigate', url: `${site.url}/mouse` }]);
      await client.run([{ type: 'click', x: 210, y: 70 }]);
      const log = await client.titleJson<{ click: number; at: [number, number] }>();
      assert.equal(log.click, 1);
      assert.deepEqual(log.at, [210, 70]);
    });

    it('lists visible interactive elements with getBoundingClientRect boxes', async () => {
      await client.run([{ type: 'navigate', url: `${site.url}/elements` }]);
      const rects = await client.titleJson<Record<string, { x: number; y: number }>>();
      const response = await client.elements();
      assert.deepEqual(response.viewport, { width: 800, height: 600 });
      assert.equal(response.device_pixel_ratio, 2);
      const byId = new Map(response.elements.map((element) => [element.id, element]));
      assert.deepEqual([...byId.keys()].sort(), Object.keys(rects).sort());
      assert.deepEqual(
        response.elements.map((element) => element.index),
        response.elements.map((_, index) => index),
      );
      for (const [id, rect] of Object.entries(rects)) {
        assert.deepEqual(byId.get(id)?.box, rect, id);
      }
      const get = (id: string) => {
        const element = byId.get(id);
        assert.ok(element, id);
        return element;
      };
      assert.equal(get('link').text, 'Link text here');
      assert.equal(get('link').href, `${site.url}/a`);
      assert.equal(get('name').name, 'Your name');
      assert.equal(get('name').input_type, 'text');
      assert.equal(get('search').name, 'Search here');
      assert.equal(get('named').name, 'email');
      assert.equal(get('aria').name, 'Aria name');
      assert.equal(get('sel').text, 'Two');
      assert.equal(get('ta').text, 'hello');
      assert.equal(get('sum').tag, 'summary');
      assert.equal(get('rb').role, 'button');
      assert.equal(get('btn').text, 'Click me');
      assert.equal(get('btn').enabled, true);
      assert.equal(get('dis').enabled, false);
      assert.ok(get('long').text.length <= 100);
      assert.ok(get('long').text.startsWith('word word'));
      assert.equal(get('lbl').tag, 'label');
    });

    it('close() stops Chromium and every process it started, and removes its profile', async () => {
      const processes = chromiumDescendants(process.pid);
      assert.ok(processes.length >= 1, 'the jail-service launched chromium as a child process');
      const profile = userDataDirOf(processes);
      assert.ok(profile && existsSync(profile), `a fresh profile: ${profile}`);
      await jail.close();
      const pids = processes.map((info) => info.pid);
      assert.deepEqual(await waitForExit(pids, 5000), []);
      assert.deepEqual(chromiumDescendants(process.pid), []);
      assert.equal(existsSync(profile), false);
      await jail.close();
    });
  },
);

// Attach mode: CLAWDIE_JAIL_CDP_URL (ws:// and http://) drives a browser someone else launched,
// and close() only disconnects.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import puppeteer, { type Browser } from 'puppeteer-core';
import { requires } from '../support/capabilities.js';
import { isAlive } from '../support/chromium-processes.js';
import { htmlPage, type StaticSite, startStaticSite } from '../support/static-site.js';
import { startTestJail } from './jail-harness.js';

describe('jail-service attached to a running Chromium', requires('chromium'), () => {
  let browser: Browser;
  let site: StaticSite;

  before(async () => {
    site = await startStaticSite({ '/hello': htmlPage('hello', '<p>hello</p>') });
    browser = await puppeteer.launch({
      executablePath: process.env.CLAWDIE_CHROMIUM_PATH || '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--remote-debugging-port=0'],
    });
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });

  for (const form of ['ws', 'http'] as const) {
    it(`drives the browser through a ${form}:// URL and leaves it running on close`, async () => {
      const ws = browser.wsEndpoint();
      const cdpUrl = form === 'ws' ? ws : `http://${new URL(ws).host}`;
      const jail = await startTestJail({
        CLAWDIE_JAIL_CDP_URL: cdpUrl,
        CLAWDIE_JAIL_VIEWPORT: '640x480',
      });
      try {
        const health = await (await jail.client.fetch('/health')).json();
        assert.equal(health.status, 'ok');
        const response = await jail.client.run([{ type: 'navigate', url: `${site.url}/hello` }]);
        assert.equal(response.state.title, 'hello');
        const { response: shot } = await jail.client.screenshot();
        assert.equal(shot.headers.get('x-image-width'), '640');
        const pages = await browser.pages();
        assert.ok(pages.some((page) => page.url() === `${site.url}/hello`));
      } finally {
        await jail.close();
      }
      assert.equal(browser.connected, true);
      const pid = browser.process()?.pid;
      assert.ok(pid !== undefined && isAlive(pid));
    });
  }
});

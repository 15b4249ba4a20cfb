// Attach mode with CLAWDIE_JAIL_CDP_TARGET: in a Chromium with several tabs on a remote-debugging
// port, the jail-service drives the tab named by its DevTools target id or by a URL prefix — not
// the first one — and a name that matches no tab fails start-up with the open tabs listed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { chromiumPath, requires } from '../support/capabilities.js';
import { htmlPage, type StaticSite, startStaticSite } from '../support/static-site.js';
import { startTestJail } from './jail-harness.js';

/** One entry of DevTools' `/json/list`, where a user finds a tab's id. */
interface DevToolsTab {
  id: string;
  type: string;
  url: string;
}

describe('jail-service attached to a chosen tab', requires('chromium'), () => {
  let browser: Browser;
  let site: StaticSite;
  let devtools: string;
  const tabs = new Map<string, Page>();
  /** The two tabs an attach without a target would not drive (it takes the first page). */
  let others: [string, string];

  before(async () => {
    site = await startStaticSite({
      '/one': htmlPage('one', '<p>one</p>'),
      '/two': htmlPage('two', '<p>two</p>'),
      '/three': htmlPage('three', '<p>three</p>'),
      '/moved': htmlPage('moved', '<p>moved</p>'),
    });
    browser = await puppeteer.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--remote-debugging-port=0'],
    });
    const [first] = await browser.pages();
    const pages = [
      first ?? (await browser.newPage()),
      await browser.newPage(),
      await browser.newPage(),
    ];
    for (const [index, name] of ['one', 'two', 'three'].entries()) {
      const page = pages[index] as Page;
      await page.goto(`${site.url}/${name}`);
      tabs.set(name, page);
    }
    devtools = `http://${new URL(browser.wsEndpoint()).host}`;
    // Which tab a fresh attach sees first is Chromium's order, not ours: ask as the service would.
    const probe = await puppeteer.connect({ browserURL: devtools });
    const firstUrl = (await probe.pages())[0]?.url();
    await probe.disconnect();
    const rest = ['one', 'two', 'three'].filter((name) => `${site.url}/${name}` !== firstUrl);
    assert.equal(rest.length, 2, `the first page is one of ours: ${firstUrl}`);
    others = rest as [string, string];
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });

  const listed = async (): Promise<DevToolsTab[]> =>
    ((await (await fetch(`${devtools}/json/list`)).json()) as DevToolsTab[]).filter(
      (tab) => tab.type === 'page',
    );

  it('by target id (from /json/list): drives that tab, not the first', async () => {
    const [name] = others;
    const chosen = (await listed()).find((tab) => tab.url === `${site.url}/${name}`);
    assert.ok(chosen, `DevTools lists /${name}`);
    const jail = await startTestJail({
      CLAWDIE_JAIL_CDP_URL: devtools,
      CLAWDIE_JAIL_CDP_TARGET: chosen.id,
    });
    try {
      assert.equal((await jail.client.state()).url, `${site.url}/${name}`);
      await jail.client.run([{ type: 'navigate', url: `${site.url}/moved` }]);
      assert.equal(tabs.get(name)?.url(), `${site.url}/moved`);
      for (const [other, page] of tabs) {
        if (other !== name) assert.equal(page.url(), `${site.url}/${other}`, other);
      }
      await tabs.get(name)?.goto(`${site.url}/${name}`);
    } finally {
      await jail.close();
    }
    assert.equal(browser.connected, true);
  });

  it('by URL prefix: drives the first tab whose URL starts with it', async () => {
    const [, name] = others;
    const jail = await startTestJail({
      CLAWDIE_JAIL_CDP_URL: devtools,
      // A prefix, not the whole URL: `/tw` of `/two`, `/th` of `/three`, `/on` of `/one`.
      CLAWDIE_JAIL_CDP_TARGET: `${site.url}/${name.slice(0, 2)}`,
    });
    try {
      const state = await jail.client.state();
      assert.equal(state.url, `${site.url}/${name}`);
      assert.equal(state.title, name);
    } finally {
      await jail.close();
    }
  });

  it('a target that matches no tab fails start-up, naming it and the open tabs', async () => {
    await assert.rejects(
      startTestJail({
        CLAWDIE_JAIL_CDP_URL: devtools,
        CLAWDIE_JAIL_CDP_TARGET: 'https://not-open.example/',
      }),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'BROWSER_UNAVAILABLE');
        assert.match(
          error.message,
          /CLAWDIE_JAIL_CDP_TARGET=https:\/\/not-open\.example\/ matches no tab \(neither a target id nor a URL prefix\); open tabs: /,
        );
        assert.ok(error.message.includes(`${site.url}/one`), error.message);
        return true;
      },
    );
    assert.equal(browser.connected, true, 'the failed attach leaves the browser running');
    assert.equal((await browser.pages()).length, 3);
  });
});

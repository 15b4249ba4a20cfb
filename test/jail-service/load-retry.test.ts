import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { GoToOptions, HTTPResponse } from 'puppeteer-core';
import {
  isNetworkChange,
  loadRetryingNetworkChange,
  NETWORK_CHANGE_RETRIES,
} from '../../jail-service/src/browser/load-retry.js';
import type { PuppeteerPageDriver } from '../../jail-service/src/browser/page-driver.js';
import { requires } from '../support/capabilities.js';
import { htmlPage, type StaticSite, startStaticSite } from '../support/static-site.js';
import { openRealPageDriver } from './real-page-driver.js';

// puppeteer's text for the load Chromium abandoned, as two fresh-clone CI runs logged it.
const changed = (url: string) => new Error(`net::ERR_NETWORK_CHANGED at ${url}`);
const URL = 'http://127.0.0.1:33787/mouse';

/** A clock the loads move forward, and a load that fails as scripted, then loads. */
function scripted(failures: Error[], costMs = 10) {
  let clock = 0;
  const limits: number[] = [];
  const load = async (timeoutMs: number) => {
    limits.push(timeoutMs);
    clock += costMs;
    const failure = failures.shift();
    if (failure) throw failure;
    return 'loaded';
  };
  return { load, limits, now: () => clock, advance: (ms: number) => (clock += ms) };
}

describe('a load abandoned on a network change is loaded again', () => {
  it('loads again after a network change, within what is left of the limit', async () => {
    const s = scripted([changed(URL)]);
    const retries: number[] = [];
    const out = await loadRetryingNetworkChange(s.load, {
      timeoutMs: 5_000,
      now: s.now,
      onRetry: (error, attempt) => {
        assert.ok(isNetworkChange(error));
        retries.push(attempt);
      },
    });
    assert.equal(out, 'loaded');
    assert.deepEqual(retries, [1]);
    assert.deepEqual(s.limits, [5_000, 4_990]);
  });

  it('gives up after its retries and throws the last network change', async () => {
    const failures = Array.from({ length: NETWORK_CHANGE_RETRIES + 2 }, () => changed(URL));
    const s = scripted(failures);
    await assert.rejects(
      loadRetryingNetworkChange(s.load, { timeoutMs: 5_000, now: s.now }),
      /ERR_NETWORK_CHANGED at http:\/\/127\.0\.0\.1:33787\/mouse/,
    );
    assert.equal(s.limits.length, NETWORK_CHANGE_RETRIES + 1);
  });

  it('never loads again after any other failure', async () => {
    for (const other of [
      new Error(`net::ERR_CONNECTION_REFUSED at ${URL}`),
      new Error(`net::ERR_NAME_NOT_RESOLVED at ${URL}`),
      new Error('Navigation timeout of 5000 ms exceeded'),
      new Error('net::ERR_NETWORK_CHANGED_SOMETHING_ELSE'),
    ]) {
      const s = scripted([other]);
      await assert.rejects(
        loadRetryingNetworkChange(s.load, { timeoutMs: 5_000, now: s.now }),
        other,
      );
      assert.equal(s.limits.length, 1, other.message);
    }
  });

  it('does not load again once the limit is spent', async () => {
    const s = scripted([changed(URL)], 5_000);
    await assert.rejects(
      loadRetryingNetworkChange(s.load, { timeoutMs: 5_000, now: s.now }),
      /ERR_NETWORK_CHANGED/,
    );
    assert.equal(s.limits.length, 1);
  });
});

// Chromium raises the error only when an address changes in its network namespace while a load is
// in flight, which no test can time; the page's first load is made to fail with its exact text,
// and the driver's real navigate (real Chromium) must load again and land.
describe(
  'navigate loads again after a network change (real Chromium)',
  requires('chromium'),
  () => {
    let site: StaticSite;
    let driver: PuppeteerPageDriver | undefined;
    before(async () => {
      site = await startStaticSite({ '/landed': htmlPage('landed', '<p>landed</p>') });
      driver = (await openRealPageDriver({ width: 400, height: 300 })).driver;
    });
    after(async () => {
      await driver?.close();
      await site?.close();
    });

    /** Makes the active page's next `failures` loads fail as Chromium does on a network change. */
    function failNextLoads(failures: number): string[] {
      const page = driver?.tabs.active().page;
      assert.ok(page);
      const real = page.goto.bind(page);
      const tried: string[] = [];
      page.goto = async (url: string, options?: GoToOptions): Promise<HTTPResponse | null> => {
        tried.push(url);
        if (tried.length <= failures) throw changed(url);
        return real(url, options);
      };
      return tried;
    }

    it('lands on the page after one abandoned load', async () => {
      assert.ok(driver);
      const tried = failNextLoads(1);
      const url = `${site.url}/landed`;
      assert.deepEqual(await driver.navigate(url, 10_000), { navigated: true });
      assert.equal(tried.length, 2);
      assert.equal(driver.currentUrl(), url);
      assert.equal(await driver.tabs.active().page.title(), 'landed');
    });

    it('fails with the network change when every load is abandoned', async () => {
      assert.ok(driver);
      const tried = failNextLoads(NETWORK_CHANGE_RETRIES + 1);
      await assert.rejects(
        driver.navigate(`${site.url}/landed?again`, 10_000),
        /navigation to .*\/landed\?again failed: net::ERR_NETWORK_CHANGED/,
      );
      assert.equal(tried.length, NETWORK_CHANGE_RETRIES + 1);
    });
  },
);

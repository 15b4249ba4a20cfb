// The jail-service's Chromium starts only the processes a headless clone uses: no renderer for the
// omnibox's WebUI popups Chromium 156 preloads even headless, no spare renderer kept warm
// (docs/performance.md "Memory per clone (PSS)": ≈ 50 MiB per clone).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { openBrowser } from '../../jail-service/src/browser/launch.js';
import { chromiumPath, requires } from '../support/capabilities.js';
import { silentLogger } from '../support/silent-logger.js';

/** How long the old flags took to show the preloaded renderers here: well under 2 s. */
const SETTLE_MS = 3000;

/** The argv of every descendant of `root` (Chromium's children rewrite their title). */
function descendants(root: number): string[] {
  const parent = new Map<number, number>();
  const title = new Map<number, string>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.split(') ')[1]?.split(' ')[1]));
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      title.set(Number(entry), argv.slice(0, 160));
    } catch {}
  }
  const below = (pid: number): boolean => {
    const up = parent.get(pid);
    return up === root || (up !== undefined && up > 1 && below(up));
  };
  return [...parent.keys()].filter(below).map((pid) => title.get(pid) ?? '');
}

describe('Chromium launched by the jail-service', requires('chromium'), () => {
  it('runs one renderer for its one page and preloads no omnibox popup', async () => {
    const opened = await openBrowser(
      { chromiumPath, cdpUrl: null, userDataDir: null, protocolTimeoutMs: 15_000 },
      silentLogger,
    );
    try {
      await opened.page.goto('data:text/html,<p>one page</p>');
      const pid = opened.browser.process()?.pid;
      assert.ok(pid);
      const session = await opened.browser.target().createCDPSession();
      const deadline = Date.now() + SETTLE_MS;
      do {
        const { targetInfos } = (await session.send('Target.getTargets', {
          filter: [{}],
        })) as { targetInfos: { url: string }[] };
        const urls = targetInfos.map((target) => target.url);
        assert.deepEqual(
          urls.filter((url) => url.startsWith('chrome://')),
          [],
          'no browser-UI WebUI',
        );
        const renderers: string[] = descendants(pid).filter((argv) =>
          argv.includes('--type=renderer'),
        );
        assert.equal(renderers.length, 1, `renderers:\n${renderers.join('\n')}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      } while (Date.now() < deadline);
    } finally {
      await opened.close();
    }
  });
});

import { createClawdieBrowserOperator } from '../../controlplane/src/browser/operator/clawdie-browser-operator.js';
import { startLocalJailService } from '../../controlplane/src/browser/provider/local-jail-service.js';
import { startDemoSite } from '../../controlplane/src/platform/demo/demo-site-server.js';
import { browserOperatorContract } from '../support/browser-operator.contract.js';
import { missingCapabilities, skipFile } from '../support/capabilities.js';
import { silentLogger } from '../support/silent-logger.js';
import { htmlPage, startStaticSite } from '../support/static-site.js';
import { testLauncher } from '../support/test-launcher.js';

if (
  !skipFile(
    'BrowserOperator contract: ClawdieBrowserOperator → jail-service → Chromium',
    missingCapabilities('chromium'),
  )
) {
  browserOperatorContract('ClawdieBrowserOperator → jail-service → Chromium', async () => {
    const site = await startDemoSite();
    // The landing page: a link, a cross-origin iframe (another port), a password and a text field,
    // each placed absolutely (CSS px of the viewport).
    const other = await startStaticSite({
      '/inner': htmlPage('inner', '<button style="width:300px;height:150px">inner</button>'),
    });
    const at = (left: number, top: number, width: number, height: number) =>
      `style="position:absolute;left:${left}px;top:${top}px;width:${width}px;height:${height}px"`;
    const pages = await startStaticSite({
      '/next': htmlPage('next', 'next page'),
    });
    pages.set(
      '/landing',
      htmlPage(
        'landing',
        `<a href="/next" ${at(20, 20, 200, 40)}>next</a>
<iframe src="${other.url}/inner" ${at(20, 100, 320, 170)}></iframe>
<input id="p" type="password" ${at(20, 300, 300, 40)}>
<input id="t" type="text" ${at(20, 360, 300, 40)}>`,
      ),
    );
    const jail = await startLocalJailService({
      egressProxyUrl: null,
      launcher: testLauncher,
      env: { ...process.env, CLAWDIE_JAIL_DEVICE_SCALE_FACTOR: '2' },
      logger: silentLogger,
    });
    return {
      operator: createClawdieBrowserOperator({ url: jail.url, token: jail.token }),
      // Port 1 on loopback refuses connections: a navigation that cannot load.
      failingAction: { type: 'navigate', url: 'http://127.0.0.1:1/' },
      reachableUrl: `${site.url}/`,
      landing: {
        url: `${pages.url}/landing`,
        link: { x: 60, y: 40, href: `${pages.url}/next` },
        frame: { x: 120, y: 160, origin: other.url },
        password: { x: 100, y: 320 },
        text: { x: 100, y: 380 },
      },
      async close() {
        await jail.stop();
        await site.close();
        await pages.close();
        await other.close();
      },
    };
  });
}

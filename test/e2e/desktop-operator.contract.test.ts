import { createDesktopOperator } from '../../controlplane/src/desktop/desktop-operator.js';
import { startXvfb } from '../../controlplane/src/desktop/runner/xvfb-process.js';
import { browserOperatorContract } from '../support/browser-operator.contract.js';
import { missingCapabilities, skipFile } from '../support/capabilities.js';

if (
  !skipFile(
    'BrowserOperator contract: DesktopOperator → xdotool/xwd → Xvfb',
    missingCapabilities('x11'),
  )
) {
  browserOperatorContract('DesktopOperator → xdotool/xwd → Xvfb', async () => {
    const xvfb = await startXvfb({ width: 800, height: 600 });
    return {
      operator: createDesktopOperator({ display: xvfb.display }),
      // A desktop has no browser: navigation is a failed action, not a rejected batch.
      failingAction: { type: 'navigate', url: 'http://127.0.0.1:1/' },
      reachableUrl: null,
      fixedUrl: `x11://${xvfb.display}`,
      close: () => xvfb.stop(),
    };
  });
}

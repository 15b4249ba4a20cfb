// The BrowserOperator contract against the jail-service's desktop surface on a real Xvfb: the
// controlplane's HTTP operator → /desktop → xwd/xdotool run by the jail-service.
import { browserOperatorContract } from '../support/browser-operator.contract.js';
import { missingCapabilities, skipFile } from '../support/capabilities.js';
import { startDesktopJail } from '../support/desktop-jail.js';

const name = 'ClawdieBrowserOperator → jail-service /desktop → xdotool/xwd → Xvfb';

if (!skipFile(`BrowserOperator contract: ${name}`, missingCapabilities('x11', 'chromium'))) {
  browserOperatorContract(name, async () => {
    const jail = await startDesktopJail({ width: 800, height: 600 });
    return {
      operator: jail.operator,
      // A desktop has no browser: navigation is a failed action, not a rejected batch.
      failingAction: { type: 'navigate', url: 'http://127.0.0.1:1/' },
      reachableUrl: null,
      fixedUrl: `x11://${jail.xvfb.display}`,
      // A display has no DOM: the desktop task operator answers every landing `target: null`.
      landing: 'a desktop surface has no DOM to land in (target null by design)',
      noDom: true,
      close: jail.close,
    };
  });
}

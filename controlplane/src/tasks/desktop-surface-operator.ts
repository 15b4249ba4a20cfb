// A desktop task's display: the desktop surface of the clone's own jail-service (`/desktop`),
// which runs xwd and xdotool inside the clone. This process never touches the X display itself.

import type { BrowserOperator } from '../browser/operator/browser-operator.js';
import { createClawdieBrowserOperator } from '../browser/operator/clawdie-browser-operator.js';
import type { BrowserLease } from '../browser/provider/browser-provider.js';
import { failingOperator } from '../browser/provider/lease-browser.js';
import { OperatorError } from '../errors.js';

/** Where the jail-service serves its desktop surface, relative to its base URL. */
export const DESKTOP_SURFACE_PATH = '/desktop';

/**
 * The operator for the lease's display over HTTP. Never throws: without a jail-service to ask,
 * every call fails with OperatorError (OPERATOR_UNAVAILABLE).
 */
export function createDesktopSurfaceOperator(
  lease: BrowserLease,
  fetch?: typeof globalThis.fetch,
): BrowserOperator {
  if (!lease.service) {
    return failingOperator(
      new OperatorError(
        'OPERATOR_UNAVAILABLE',
        `desktop tasks need the clone's jail-service: the task's browser "${lease.id}" has none`,
      ),
    );
  }
  const url = `${lease.service.url.replace(/\/+$/, '')}${DESKTOP_SURFACE_PATH}`;
  const doFetch = fetch ?? lease.service.fetch;
  return createClawdieBrowserOperator({
    url,
    token: lease.service.token,
    ...(doFetch ? { fetch: doFetch } : {}),
  });
}

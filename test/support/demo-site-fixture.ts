import type { RunningDemoSite } from '../../controlplane/src/platform/demo/demo-site-server.js';
import {
  demoCredentials,
  demoSessionCookie,
  startDemoSite,
} from '../../controlplane/src/platform/demo/demo-site-server.js';

/** Anything with node:test's `after` / `t.after` shape. */
export interface CleanupRegistrar {
  after(fn: () => unknown): void;
}

/** A demo site on 127.0.0.1:0 plus HTTP helpers for tests. */
export interface DemoSiteFixture extends RunningDemoSite {
  /** GET (or POST with `form`) a path on the site, never following redirects. */
  request(
    path: string,
    options?: { cookie?: string; form?: Record<string, string> },
  ): Promise<Response>;
  /** Signs in (default: the demo credentials) and returns the `name=value` session cookie. */
  signIn(credentials?: { username: string; password: string }): Promise<string>;
}

/**
 * Starts the bundled demo site for a test; closes it through `cleanup.after` when given (else the
 * caller closes it).
 *
 * @example
 * const site = await startDemoSiteFixture(t);
 * const cookie = await site.signIn();
 * const page = await site.request('/results?q=lamp', { cookie });
 */
export async function startDemoSiteFixture(cleanup?: CleanupRegistrar): Promise<DemoSiteFixture> {
  const site = await startDemoSite();
  cleanup?.after(() => site.close());

  const request: DemoSiteFixture['request'] = (path, options = {}) => {
    const headers: Record<string, string> = {};
    if (options.cookie !== undefined) headers.cookie = options.cookie;
    return fetch(new URL(path, site.url), {
      method: options.form === undefined ? 'GET' : 'POST',
      headers,
      redirect: 'manual',
      ...(options.form === undefined ? {} : { body: new URLSearchParams(options.form) }),
    });
  };

  return {
    url: site.url,
    close: () => site.close(),
    request,
    async signIn(credentials = demoCredentials) {
      const response = await request('/login', { form: { ...credentials } });
      const cookie = response.headers.get('set-cookie')?.split(';')[0];
      if (response.status !== 303 || !cookie?.startsWith(`${demoSessionCookie}=`)) {
        throw new Error(`demo sign-in failed with status ${response.status}`);
      }
      return cookie;
    },
  };
}

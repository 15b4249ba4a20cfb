// A local jail-service whose port is taken between asking for it and binding it (another process
// won the race) starts on another port instead of failing the whole start, and the child that lost
// the port exits by itself (before, it stayed alive on its stdin watcher until the 30 s health wait
// ran out, and then ended by our SIGTERM). Both starts run the jail-service's one-file bundle
// (current after the build `npm test` runs first) with the clones' node flags, not the ~700
// compiled files (≈ 0.4 s more start-up each).
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { freePort } from '../../controlplane/src/browser/provider/child-service.js';
import { startLocalJailService } from '../../controlplane/src/browser/provider/local-jail-service.js';
import { requires } from '../support/capabilities.js';
import { silentLogger } from '../support/silent-logger.js';
import { testLauncher } from '../support/test-launcher.js';

describe('local jail-service: a port taken before it binds', requires('chromium'), () => {
  it('tries another port and starts', async () => {
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const address = squatter.address();
    const taken = typeof address === 'object' && address ? address.port : 0;
    const offered: number[] = [];
    const exits: Promise<number | null>[] = [];
    const argvs: (readonly string[])[] = [];
    const launcher: typeof testLauncher = {
      ...testLauncher,
      async launch(options) {
        argvs.push(options.argv);
        const child = await testLauncher.launch(options);
        exits.push(child.exited);
        return child;
      },
    };
    try {
      const jail = await startLocalJailService({
        egressProxyUrl: null,
        launcher,
        env: process.env,
        logger: silentLogger,
        // The first offer is the squatter's port, as when another process wins the race.
        pickPort: async () => {
          const port = offered.length === 0 ? taken : await freePort();
          offered.push(port);
          return port;
        },
      });
      try {
        assert.equal(offered.length, 2);
        for (const argv of argvs) {
          assert.match(argv.at(-1) ?? '', /\/jail-service\/dist\/bundle\/main\.mjs$/);
          assert.ok(argv.includes('--max-semi-space-size=1'), argv.join(' '));
        }
        // Exit code 1 is the service's own failure exit; a SIGTERM from the parent's stop would
        // have ended it with 0 (its stop handler) or a signal (null).
        assert.equal(await exits[0], 1, 'the child that lost the port exits with 1 by itself');
        assert.equal(jail.url, `http://127.0.0.1:${offered[1]}`);
        const health = await fetch(`${jail.url}/health`, {
          headers: { authorization: `Bearer ${jail.token}` },
        });
        assert.equal(health.status, 200);
      } finally {
        await jail.stop();
      }
    } finally {
      squatter.close();
    }
  });
});

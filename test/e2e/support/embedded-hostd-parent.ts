// A stand-in controlplane for the crash test: starts hostd the way `npm start` does, has it make
// one clone, prints what it made as one JSON line, then idles until it is killed.

import { startEmbeddedHostd } from '../../../controlplane/src/browser/provider/embedded-hostd.js';
import { HostdClient } from '../../../hostd/src/api/client.js';
import { silentLogger } from '../../support/silent-logger.js';
import { testLauncher } from '../../support/test-launcher.js';

const hostd = await startEmbeddedHostd({
  launcher: testLauncher,
  env: { ...process.env },
  logger: silentLogger,
});
const client = new HostdClient({ baseUrl: hostd.url, token: hostd.token });
const clone = await client.createClone({ taskId: 'parent-crash', allowedDomains: [] });
process.stdout.write(`${JSON.stringify({ hostdPid: hostd.process.pid, clone: clone.name })}\n`);
setInterval(() => undefined, 60_000);

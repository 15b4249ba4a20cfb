// Child process for test/e2e/mcp-stdio.test.ts: `clawdie mcp` with the fake operator and a replay
// model. Run with `node --conditions=source --import tsx test/support/mcp-stdio-entry.ts`.
// Logs at info level to stderr, so the test can tell they did not land on stdout.
import { pino } from 'pino';
import { runMcpStdio } from '../../controlplane/src/ingress/mcp/stdio.js';
import { clickThenFinish, createTestTasks } from '../controlplane/ingress/mcp/mcp-fixture.js';

const logger = pino({ level: 'info' }, pino.destination({ fd: 2, sync: true }));
const fixture = createTestTasks({ outputs: clickThenFinish, logger });
const stop = new AbortController();
process.once('SIGTERM', () => stop.abort());

await runMcpStdio(
  { tasks: fixture.tasks, logger, defaultMaxSteps: fixture.maxSteps },
  { signal: stop.signal },
);
await fixture.close();
process.stderr.write('mcp-stdio-entry: closed cleanly\n');

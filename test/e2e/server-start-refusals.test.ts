// Issue 25 (5): `npm start` is refused before anything runs — no Chromium, no jail-service — when
// its configuration, a policy file or its port is bad, and says so with exit code 2 (as the CLI
// does for the same refusals). Before, the browser started first and the process then exited 1.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startServerProcess } from '../support/server-process.js';

const scratch = mkdtempSync(join(tmpdir(), 'clawdie-start-refusals-'));

/** Runs main.ts on a fresh data dir with `env`; its exit code and output. */
async function start(name: string, env: Record<string, string>) {
  const server = startServerProcess(join(scratch, name), env);
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 60_000);
  const [code] = await server.exited;
  clearTimeout(timer);
  return { code, output: server.output() };
}

describe('npm start refuses before anything runs', () => {
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('a bad setting: exit 2, naming it', async () => {
    const { code, output } = await start('config', { CLAWDIE_PORT: 'eighty' });
    assert.equal(code, 2, output);
    assert.match(output, /CLAWDIE_PORT/);
    assert.doesNotMatch(output, /local jail-service ready/);
  });

  it('a bad policy file: exit 2, naming the file, before the browser starts', async () => {
    const policies = join(scratch, 'policies');
    mkdirSync(policies);
    writeFileSync(join(policies, 'default.yaml'), 'tenant: default\ndomains: { allow: 7 }\n');
    const { code, output } = await start('policy', { CLAWDIE_POLICY_DIR: policies });
    assert.equal(code, 2, output);
    assert.match(output, /default\.yaml: domains\.allow/);
    assert.doesNotMatch(output, /local jail-service ready/, 'no browser was started');
  });

  it('a port in use: exit 2, naming host and port, before the browser starts', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as { port: number };
    try {
      const { code, output } = await start('port', { CLAWDIE_PORT: String(port) });
      assert.equal(code, 2, output);
      assert.match(
        output,
        new RegExp(`127\\.0\\.0\\.1:${port} cannot be listened on \\(EADDRINUSE\\)`),
      );
      assert.doesNotMatch(output, /local jail-service ready/, 'no browser was started');
    } finally {
      holder.close();
    }
  });
});

// The README's commands that promise clean stdout, run exactly as the README writes them (through
// a shell, from the checkout): `npx clawdie … --json` prints one JSON document and nothing else, and
// `npx clawdie mcp` speaks only JSON-RPC on stdout.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { compactResultSchema } from '../../controlplane/src/tasks/task-input.js';
import { requires } from '../support/capabilities.js';
import { repositoryRoot } from '../support/repository-root.js';

const root = repositoryRoot;
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** Shell lines of the README's code blocks that start with `prefix` (comments dropped). */
function readmeLines(prefix: string): string[] {
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
  return blocks
    .flatMap((block) => block.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.startsWith(prefix));
}

describe('README commands with clean stdout', requires('chromium'), () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-readme-'));
  const env: Record<string, string> = {
    ...(Object.fromEntries(
      Object.entries(process.env).filter((entry) => entry[1] !== undefined),
    ) as Record<string, string>),
    CLAWDIE_DATA_DIR: dataDir,
    CLAWDIE_HOSTD: 'off',
  };
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('every `npx clawdie … --json` line prints exactly one JSON result on stdout', () => {
    const lines = readmeLines('npx clawdie').filter((line) => line.includes('--json'));
    assert.ok(lines.length > 0, 'the README shows no `npx clawdie … --json` command');
    for (const line of lines) {
      const result = spawnSync('/bin/sh', ['-c', line], {
        cwd: root,
        env,
        encoding: 'utf8',
        timeout: 80_000,
      });
      assert.equal(result.status, 0, `${line}\n${result.stderr}`);
      const compact = compactResultSchema.parse(JSON.parse(result.stdout));
      assert.equal(compact.status, 'finished', line);
    }
  });

  it('the README MCP stdio command gives the SDK client nothing but JSON-RPC', async () => {
    const mcp = readme.match(/`(npx clawdie mcp)`/)?.[1];
    assert.ok(mcp, 'the README shows no `npx clawdie mcp`');
    const [command = '', ...args] = mcp.split(' ');
    const transport = new StdioClientTransport({ command, args, cwd: root, env, stderr: 'pipe' });
    const client = new Client({ name: 'readme-test', version: '0.0.0' });
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((tool) => tool.name),
        ['browser_run_task'],
      );
    } finally {
      await client.close();
    }
    assert.deepEqual(errors, []);
  });
});

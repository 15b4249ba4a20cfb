// Issue 25 (5): `clawdie mcp` on a data directory a server holds is refused — and the MCP client
// is told why in the answer to its `initialize`, not only "Connection closed". The real SDK client
// spawns the real command (from source); the data directory is claimed by this process as a
// server would claim it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { loadConfig } from '../../controlplane/src/config.js';
import { claimDataDirAt } from '../../controlplane/src/platform/ownership/data-dir-owner.js';
import { CLAWDIE_ARGV } from '../support/current-build.js';
import { repositoryRoot } from '../support/server-process.js';
import { silentLogger } from '../support/silent-logger.js';

describe('clawdie mcp on a data dir in use', () => {
  it('answers initialize with an error naming the server that holds it, then exits', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-mcp-refused-'));
    const config = loadConfig({ CLAWDIE_DATA_DIR: dataDir });
    const owner = await claimDataDirAt(config.databasePath, {
      kind: 'server',
      dataDir,
      logger: silentLogger,
    });
    await owner.setUrl('http://127.0.0.1:8799');
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('CLAWDIE_')),
    ) as Record<string, string>;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...CLAWDIE_ARGV, 'mcp'],
      cwd: repositoryRoot,
      env: { ...inherited, CLAWDIE_DATA_DIR: dataDir },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test', version: '0.0.0' });
    try {
      await assert.rejects(client.connect(transport), (error: Error) => {
        assert.match(error.message, /clawdie mcp cannot start: .*http:\/\/127\.0\.0\.1:8799/s);
        return true;
      });
    } finally {
      await client.close().catch(() => undefined);
      await owner.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

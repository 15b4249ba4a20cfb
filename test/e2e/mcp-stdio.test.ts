import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { JSONRPCMessageSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { compactResultSchema } from '../../controlplane/src/tasks/task-input.js';
import { requires } from '../support/capabilities.js';
import { supportScriptArgv } from '../support/current-build.js';
import { repositoryRoot } from '../support/repository-root.js';

const root = repositoryRoot;
const entryArgs = [...supportScriptArgv('test/support/mcp-stdio-entry.ts')];

describe('clawdie mcp over stdio (child process)', requires('chromium'), () => {
  it('serves browser_run_task to the SDK client with progress, and exits when stdin closes', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: entryArgs,
      cwd: root,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'test', version: '0.0.0' });
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((tool) => tool.name),
        ['browser_run_task'],
      );
      const progress: Progress[] = [];
      const result = await client.callTool(
        { name: 'browser_run_task', arguments: { instruction: 'read the answer' } },
        undefined,
        { onprogress: (update) => progress.push(update) },
      );
      const compact = compactResultSchema.parse(result.structuredContent);
      assert.equal(compact.status, 'finished');
      assert.equal(compact.summary, '42');
      // The server writes the last step's progress before the result. The SDK client (1.32)
      // handles a notification a microtask later but a response at once, so when both arrive in
      // one read it drops that progress as "an unknown token" (typescript-sdk issue #2580): then
      // its error carries the notification, which shows it was sent, and in order.
      const steps = ['step 1/5: click (640, 400)', 'step 2/5: type "demo"', 'step 3/5: finished'];
      const seen = progress.map((update) => update.message);
      const late = errors.filter((error) => /unknown token/.test(error.message));
      if (seen.length === 2 && late.length === 1) {
        assert.deepEqual(seen, steps.slice(0, 2));
        assert.match(late[0]?.message ?? '', /"message":"step 3\/5: finished"/);
        errors.splice(errors.indexOf(late[0] as Error), 1);
      } else {
        assert.deepEqual(seen, steps);
      }
    } finally {
      await client.close();
    }
    // Every stdout line parsed as JSON-RPC (a stray line would have been a transport error) ...
    assert.deepEqual(errors, []);
    // ... while the logs went to stderr, and the server closed itself when stdin ended.
    assert.match(stderr, /"msg":"mcp-stdio-started"/);
    assert.match(stderr, /"msg":"task-ended"/);
    assert.match(stderr, /mcp-stdio-entry: closed cleanly/);
  });

  it('writes nothing but JSON-RPC messages to stdout and exits 0 on end of input', async () => {
    const child = spawn(process.execPath, entryArgs, {
      cwd: root,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const lines: string[] = [];
    const responses = new Map<number, (message: Record<string, any>) => void>();
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      const message = JSON.parse(line) as Record<string, any>;
      if (typeof message.id === 'number') responses.get(message.id)?.(message);
    });
    const request = (id: number, method: string, params: unknown) => {
      const answered = new Promise<Record<string, any>>((resolve) => responses.set(id, resolve));
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      return answered;
    };
    await request(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '0' },
    });
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
    );
    const call = await request(2, 'tools/call', {
      name: 'browser_run_task',
      arguments: { instruction: 'read the answer' },
      _meta: { progressToken: 'p-1' },
    });
    child.stdin.end();
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);

    assert.equal(call.result.structuredContent.status, 'finished');
    for (const line of lines)
      assert.ok(JSONRPCMessageSchema.safeParse(JSON.parse(line)).success, line);
    const progress = lines
      .map((line) => JSON.parse(line) as Record<string, any>)
      .filter((message) => message.method === 'notifications/progress')
      .map((message) => message.params);
    assert.deepEqual(progress, [
      { progressToken: 'p-1', progress: 1, total: 5, message: 'step 1/5: click (640, 400)' },
      { progressToken: 'p-1', progress: 2, total: 5, message: 'step 2/5: type "demo"' },
      { progressToken: 'p-1', progress: 3, total: 5, message: 'step 3/5: finished' },
    ]);
    assert.equal(lines.length, 2 + 3);
  });
});

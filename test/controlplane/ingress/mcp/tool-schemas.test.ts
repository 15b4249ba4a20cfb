// Issue 25, point 3: every MCP tool's inputSchema and outputSchema is valid JSON Schema (the MCP
// Inspector's --strict check, offline): it validates against its draft's meta-schema and compiles
// in ajv's strict mode with the standard formats, as the MCP SDK validates (no unknown keywords or
// formats, none ignored).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { loopbackPrincipal } from '../../../../controlplane/src/governance/auth/scopes.js';
import { createMcpServer } from '../../../../controlplane/src/ingress/mcp/mcp-server.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { clickThenFinish, createTestTasks } from './mcp-fixture.js';

const draft2020 = 'https://json-schema.org/draft/2020-12/schema';

/** The meta-schema problems and strict-mode compile error of one schema (none: []). */
function problemsOf(schema: Record<string, unknown>): string[] {
  const ajv =
    schema.$schema === draft2020 ? new Ajv2020({ strict: true }) : new Ajv({ strict: true });
  addFormats.default(ajv);
  if (!ajv.validateSchema(schema))
    return (ajv.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  try {
    ajv.compile(schema);
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}

describe('MCP tool schemas', () => {
  it('every tool input and output schema is valid JSON Schema for its draft', async (t) => {
    const fixture = createTestTasks({ outputs: clickThenFinish });
    t.after(() => fixture.close());
    const server = createMcpServer(
      { tasks: fixture.tasks, logger: silentLogger, defaultMaxSteps: 5 },
      loopbackPrincipal,
    );
    const client = new Client({ name: 'test', version: '0.0.0' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
    t.after(() => client.close());
    const { tools } = await client.listTools();
    assert.ok(tools.length > 0);
    let checked = 0;
    for (const tool of tools) {
      for (const [which, schema] of [
        ['inputSchema', tool.inputSchema],
        ['outputSchema', tool.outputSchema],
      ] as const) {
        if (!schema) continue;
        assert.deepEqual(problemsOf(schema), [], `${tool.name} ${which}`);
        checked++;
      }
    }
    assert.ok(checked >= 2, `checked ${checked} schemas`);
    // And a schema that is not one is refused: the check can fail.
    assert.notDeepEqual(problemsOf({ type: 'object', properties: { a: { type: 'strin' } } }), []);
  });
});

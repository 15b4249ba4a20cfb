// The pi tool's parameters are generated from the controlplane's task input declaration: they must
// take and refuse what the server's zod schema does, in the JSON Schema shape pi's providers need.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Compile } from 'typebox/compile';
import { browserRunTaskParameters } from '../../../controlplane/pi-extension/parameters.js';
import { browserRunTaskInputSchema } from '../../../controlplane/src/tasks/task-input.js';

const piCheck = Compile(browserRunTaskParameters);
const serverAccepts = (input: unknown) => browserRunTaskInputSchema.safeParse(input).success;
const keptId = 'ks_0123456789abcdefXYZ';

const accepted: Record<string, unknown> = {
  minimal: { instruction: 'report the price' },
  full: {
    instruction: 'report the price',
    start_url: 'https://shop.example.org/pricing',
    surface: 'desktop',
    domains: ['Shop.Example.org', '*.cdn.example.org', 'api.example.org:8443'],
    credential_mode: 'supervisor_approved',
    keep_session: true,
    session_id: keptId,
    record: true,
    max_steps: 500,
    result_schema: { type: 'object', properties: { price: { type: 'number' } } },
    timeout_s: 86_400,
    success_criteria: { text_contains: ['Pro'], url_matches: '*/pricing*', visual: 'a table' },
    logged_in_check: { text_absent: 'Sign in', timeout_ms: 30_000 },
  },
  session: { instruction: 'x', credential_mode: 'session', session: 'work.profile-1' },
  'a former credential_mode name': {
    instruction: 'x',
    credential_mode: 'operator_approved', // read as supervisor_approved
  },
};

const refused: Record<string, unknown> = {
  'no instruction': {},
  'an unknown field': { instruction: 'x', extra: 1 },
  'an empty instruction': { instruction: '' },
  'an instruction over 10,000 characters': { instruction: 'x'.repeat(10_001) },
  'a file: start_url': { instruction: 'x', start_url: 'file:///etc/passwd' },
  'a start_url that is no URL': { instruction: 'x', start_url: 'shop.example.org' },
  'an unknown surface': { instruction: 'x', surface: 'tablet' },
  'an unknown credential_mode': { instruction: 'x', credential_mode: 'any' },
  'empty domains': { instruction: 'x', domains: [] },
  'a domain with a space': { instruction: 'x', domains: ['exa mple.org'] },
  'a domain with a path': { instruction: 'x', domains: ['example.org/admin'] },
  'a domain with port 0': { instruction: 'x', domains: ['example.org:0'] },
  '101 domains': { instruction: 'x', domains: Array.from({ length: 101 }, (_, i) => `h${i}.org`) },
  'a bad session name': { instruction: 'x', credential_mode: 'session', session: '-x' },
  'a made-up session_id': { instruction: 'x', session_id: 'ks_short' },
  'a string keep_session': { instruction: 'x', keep_session: 'yes' },
  'max_steps 0': { instruction: 'x', max_steps: 0 },
  'max_steps 501': { instruction: 'x', max_steps: 501 },
  'a fractional max_steps': { instruction: 'x', max_steps: 1.5 },
  'a string max_steps': { instruction: 'x', max_steps: '12' },
  'timeout_s over a day': { instruction: 'x', timeout_s: 86_401 },
  'an array result_schema': { instruction: 'x', result_schema: [] },
  'an unknown success criterion': { instruction: 'x', success_criteria: { extra: 'x' } },
  '21 text_contains': {
    instruction: 'x',
    success_criteria: { text_contains: Array(21).fill('a') },
  },
  'a logged_in_check timeout over 30 s': {
    instruction: 'x',
    logged_in_check: { text_absent: 'Sign in', timeout_ms: 30_001 },
  },
};

/** Rules JSON Schema cannot state: pi passes these on, and the server's 400 ends the call. */
const serverOnly: Record<string, unknown> = {
  'a blank instruction (trimmed)': { instruction: '   ' },
  'a start_url outside domains': {
    instruction: 'x',
    start_url: 'https://other.example.net/',
    domains: ['example.org'],
  },
  'credential_mode session without a session': { instruction: 'x', credential_mode: 'session' },
  'a logged_in_check with no condition': { instruction: 'x', logged_in_check: { timeout_ms: 5 } },
  'a url_matches regex with a backreference': {
    instruction: 'x',
    success_criteria: { url_matches: '/(a)\\1/' },
  },
};

type JsonNode = Record<string, unknown>;
function* nodes(node: unknown): Generator<JsonNode> {
  if (typeof node !== 'object' || node === null) return;
  if (!Array.isArray(node)) yield node as JsonNode;
  for (const child of Object.values(node)) yield* nodes(child);
}

describe('browser_run_task parameters (generated from the task input schema)', () => {
  for (const [name, input] of Object.entries(accepted)) {
    it(`accept ${name}, as the server does`, () => {
      assert.equal(serverAccepts(input), true);
      assert.deepEqual([...piCheck.Errors(input)], []);
    });
  }
  for (const [name, input] of Object.entries(refused)) {
    it(`refuse ${name}, as the server does`, () => {
      assert.equal(serverAccepts(input), false);
      assert.equal(piCheck.Check(input), false);
    });
  }

  it('leave only the cross-field and transform rules to the server', () => {
    for (const [name, input] of Object.entries(serverOnly)) {
      assert.equal(serverAccepts(input), false, name);
      assert.equal(piCheck.Check(input), true, `${name}: now expressible; move it to refused`);
    }
  });

  it('have the shape pi and its model providers take', () => {
    const schema = browserRunTaskParameters as unknown as JsonNode & {
      properties: Record<string, JsonNode>;
    };
    assert.deepEqual(schema.required, ['instruction']);
    assert.equal(schema.additionalProperties, false);
    for (const node of nodes(schema)) {
      for (const key of ['$schema', '$ref', '$defs', 'anyOf', 'oneOf', 'const']) {
        assert.equal(key in node, false, `no ${key}: ${JSON.stringify(node).slice(0, 80)}`);
      }
      // pi-ai's StringEnum shape; a union of literals breaks Google models.
      if ('enum' in node) assert.equal(node.type, 'string');
    }
    assert.deepEqual(schema.properties.credential_mode?.enum, [
      'none',
      'supervisor_approved',
      'session',
      'operator_approved', // the former name of supervisor_approved, still accepted
    ]);
    for (const [name, property] of Object.entries(schema.properties)) {
      assert.ok(String(property.description).length > 20, `${name} is described for the model`);
    }
  });
});

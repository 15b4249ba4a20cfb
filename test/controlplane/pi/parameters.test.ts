import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Value } from 'typebox/value';
import { z } from 'zod';
import { browserRunTaskParameters } from '../../../controlplane/pi-extension/parameters.js';
import { browserRunTaskFields } from '../../../controlplane/src/tasks/task-input.js';

const compared = [
  'type',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'enum',
] as const;

function pick(schema: Record<string, unknown>) {
  return Object.fromEntries(
    compared.filter((key) => key in schema).map((key) => [key, schema[key]]),
  );
}

describe('browser_run_task TypeBox parameters', () => {
  it('mirror the controlplane input fields: names, required, types, bounds and enums', () => {
    const server = z.toJSONSchema(z.strictObject(browserRunTaskFields), { io: 'input' }) as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
    const tool = browserRunTaskParameters as unknown as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
      additionalProperties: boolean;
    };
    assert.deepEqual(Object.keys(tool.properties), Object.keys(server.properties));
    assert.deepEqual(tool.required, server.required);
    assert.equal(tool.additionalProperties, false);
    for (const [name, schema] of Object.entries(server.properties)) {
      assert.deepEqual(pick(tool.properties[name] ?? {}), pick(schema), name);
      assert.ok(String(tool.properties[name]?.description).length > 20, `${name} is described`);
    }
  });

  it('accept a full input and reject unknown fields and bad values', () => {
    const full = {
      instruction: 'report the price',
      start_url: 'https://shop.example.org/',
      domains: ['shop.example.org', '*.cdn.example.org'],
      credential_mode: 'operator_approved',
      record: true,
      max_steps: 12,
      result_schema: { type: 'object', properties: { price: { type: 'number' } } },
      timeout_s: 300,
    };
    assert.equal(Value.Check(browserRunTaskParameters, full), true);
    assert.equal(Value.Check(browserRunTaskParameters, { instruction: 'x', extra: 1 }), false);
    assert.equal(Value.Check(browserRunTaskParameters, { instruction: '' }), false);
    assert.equal(
      Value.Check(browserRunTaskParameters, { instruction: 'x', credential_mode: 'any' }),
      false,
    );
    assert.equal(
      Value.Check(browserRunTaskParameters, { instruction: 'x', start_url: 'file:///etc' }),
      false,
    );
    assert.equal(Value.Check(browserRunTaskParameters, { instruction: 'x', max_steps: 0 }), false);
  });
});

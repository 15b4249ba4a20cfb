import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  indexedDbTotals,
  SESSION_LIMITS,
  sessionBundleSchema,
  taggedValueProblem,
} from '@clawdie/kit/jail-api';

describe('tagged JSON of IndexedDB values', () => {
  it('accepts plain JSON and every tag the page codec writes', () => {
    const values = [
      'text',
      12.5,
      true,
      null,
      [1, 'a', [null]],
      { nested: { list: [1, 2] } },
      { $t: 'undefined' },
      { $t: 'number', v: 'NaN' },
      { $t: 'number', v: '-0' },
      { $t: 'bigint', v: '-12345678901234567890' },
      { $t: 'date', v: 1_700_000_000_000 },
      { $t: 'date', v: { $t: 'number', v: 'NaN' } },
      { $t: 'regexp', v: 'a+b', f: 'gi' },
      { $t: 'arraybuffer', v: 'AAH+/w==' },
      { $t: 'typedarray', c: 'Float64Array', v: '' },
      { $t: 'dataview', v: 'CQg=' },
      { $t: 'map', v: [[{ $t: 'date', v: 1 }, { a: 1 }]] },
      { $t: 'set', v: ['x', { $t: 'undefined' }] },
      { $t: 'object', v: { $t: 'a site field', v: 1 } },
    ];
    for (const value of values)
      assert.equal(taggedValueProblem(value), undefined, JSON.stringify(value));
  });

  it('refuses unknown tags, stray keys, bad payloads and too deep nesting', () => {
    let deep: unknown = 1;
    for (let i = 0; i <= SESSION_LIMITS.indexedDbDepth; i += 1) deep = [deep];
    const bad = [
      { $t: 'blob', v: '' },
      { $t: 'number', v: '12' },
      { $t: 'bigint', v: '1e3' },
      { $t: 'arraybuffer', v: 'not base64!' },
      { $t: 'typedarray', c: 'Window', v: '' },
      { $t: 'map', v: [[1]] },
      { $t: 'undefined', extra: 1 },
      { inner: { $t: 'function' } },
      deep,
    ];
    for (const value of bad)
      assert.notEqual(taggedValueProblem(value), undefined, JSON.stringify(value).slice(0, 80));
  });

  it('counts databases, records and their UTF-8 bytes for the limits', () => {
    const bundle = sessionBundleSchema.parse({
      cookies: [],
      origins: [
        {
          origin: 'http://127.0.0.1:9',
          localStorage: [],
          indexedDB: {
            databases: [
              {
                name: 'd',
                version: 1,
                stores: [
                  {
                    name: 'a',
                    keyPath: 'id',
                    autoIncrement: false,
                    indexes: [],
                    records: [{ value: { id: 'é' } }],
                  },
                  {
                    name: 'b',
                    keyPath: null,
                    autoIncrement: true,
                    indexes: [],
                    records: [{ key: 1, value: 2 }],
                  },
                ],
              },
            ],
            skipped: [],
          },
        },
      ],
    });
    const totals = indexedDbTotals(bundle.origins.map((entry) => entry.indexedDB));
    assert.deepEqual(totals, {
      databases: 1,
      records: 2,
      bytes: Buffer.byteLength('[null,{"id":"é"}]') + Buffer.byteLength('[1,2]'),
    });
  });
});

// Contract of a session bundle's IndexedDB part: per origin, its databases (version, object
// stores, indexes) and records, with keys and values in a tagged JSON that round-trips
// structured-clone data (see browser/indexeddb-script.ts), plus what the export had to skip.
import { z } from 'zod';
import { SESSION_LIMITS } from './session-limits.js';

/** Typed-array constructors a `typedarray` tag may name. */
export const TYPED_ARRAYS = [
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
] as const;

/** Why a record or database was left out of an export (named, counted; never its value). */
export const indexedDbSkipReasons = [
  'blob',
  'file',
  'crypto-key',
  'cyclic',
  'too-deep',
  'unsupported-type',
  'too-many-databases',
  'too-many-stores',
  'too-many-records',
  'too-large',
  'unreadable',
] as const;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const SPECIAL_NUMBERS = ['NaN', 'Infinity', '-Infinity', '-0'];

/**
 * Why `value` is not a tagged-JSON value, or undefined when it is. Plain JSON passes through
 * (finite numbers, strings, booleans, null, arrays, objects without a `$t` key); anything else is
 * `{ $t, v }`: undefined, number (NaN/±Infinity/-0), bigint, date, regexp, arraybuffer,
 * typedarray (`c` names the view), dataview, map, set, and object (a plain object with `$t`).
 */
export function taggedValueProblem(value: unknown, depth = 0): string | undefined {
  if (depth > SESSION_LIMITS.indexedDbDepth) return 'nested too deep';
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'not a finite number';
  if (Array.isArray(value)) return firstProblem(value, depth);
  if (typeof value !== 'object') return `a ${typeof value}`;
  const record = value as Record<string, unknown>;
  if (!('$t' in record)) return firstProblem(Object.values(record), depth);
  const { $t: tag, v } = record;
  const keys = Object.keys(record).sort().join(',');
  const expect = (wanted: string) => (keys === wanted ? undefined : `${String(tag)}: keys ${keys}`);
  switch (tag) {
    case 'undefined':
      return expect('$t');
    case 'number':
      return expect('$t,v') ?? (SPECIAL_NUMBERS.includes(v as string) ? undefined : 'bad number');
    case 'bigint':
      return expect('$t,v') ?? (/^-?\d{1,400}$/.test(String(v)) ? undefined : 'bad bigint');
    case 'date':
      return expect('$t,v') ?? taggedValueProblem(v, depth + 1);
    case 'regexp':
      return expect('$t,f,v') ?? (typeof v === 'string' ? undefined : 'bad regexp');
    case 'arraybuffer':
    case 'dataview':
      return expect('$t,v') ?? base64Problem(v);
    case 'typedarray':
      return (
        expect('$t,c,v') ??
        (TYPED_ARRAYS.includes(record.c as never) ? base64Problem(v) : 'bad typed array')
      );
    case 'map':
      if (!Array.isArray(v) || v.some((pair) => !Array.isArray(pair) || pair.length !== 2))
        return 'bad map';
      return expect('$t,v') ?? firstProblem(v.flat(), depth);
    case 'set':
      return expect('$t,v') ?? (Array.isArray(v) ? firstProblem(v, depth) : 'bad set');
    case 'object':
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return 'bad object';
      return expect('$t,v') ?? firstProblem(Object.values(v), depth);
    default:
      return `unknown tag ${String(tag).slice(0, 40)}`;
  }
}

function firstProblem(values: unknown[], depth: number): string | undefined {
  for (const item of values) {
    const problem = taggedValueProblem(item, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

function base64Problem(value: unknown): string | undefined {
  return typeof value === 'string' && BASE64.test(value) ? undefined : 'bad base64';
}

const taggedValueSchema = z.unknown().superRefine((value, context) => {
  const problem = taggedValueProblem(value);
  if (problem) context.addIssue({ code: 'custom', message: `not tagged JSON: ${problem}` });
});

const nameSchema = z.string().max(SESSION_LIMITS.indexedDbNameChars);
const keyPathSchema = z
  .union([nameSchema, z.array(nameSchema).min(1).max(SESSION_LIMITS.indexedDbIndexesPerStore)])
  .nullable();

export const indexedDbIndexSchema = z.strictObject({
  name: nameSchema,
  keyPath: z.union([
    nameSchema,
    z.array(nameSchema).min(1).max(SESSION_LIMITS.indexedDbIndexesPerStore),
  ]),
  unique: z.boolean(),
  multiEntry: z.boolean(),
});

/** `key` is present exactly when the store has no key path (out-of-line keys). */
export const indexedDbRecordSchema = z.strictObject({
  key: taggedValueSchema.optional(),
  value: taggedValueSchema,
});

export const indexedDbStoreSchema = z
  .strictObject({
    name: nameSchema,
    keyPath: keyPathSchema,
    autoIncrement: z.boolean(),
    indexes: z.array(indexedDbIndexSchema).max(SESSION_LIMITS.indexedDbIndexesPerStore),
    /** Bounded by the body size here; the route refuses totals over the limits with 413. */
    records: z.array(indexedDbRecordSchema),
  })
  .superRefine((store, context) => {
    const inline = store.keyPath !== null;
    const bad = store.records.findIndex((record) => inline === 'key' in record);
    if (bad >= 0)
      context.addIssue({
        code: 'custom',
        path: ['records', bad],
        message: inline ? 'a store with a key path takes no key' : 'a record needs its key',
      });
  });

export const indexedDbDatabaseSchema = z.strictObject({
  name: nameSchema,
  version: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  stores: z.array(indexedDbStoreSchema).max(SESSION_LIMITS.indexedDbStoresPerDatabase),
});
export type IndexedDbDatabase = z.infer<typeof indexedDbDatabaseSchema>;

export const indexedDbSkipSchema = z.strictObject({
  database: nameSchema,
  store: nameSchema.optional(),
  reason: z.enum(indexedDbSkipReasons),
  /**
   * Records left out, or databases for `too-many-databases` (then `database` names the first),
   * `unreadable` and `too-many-stores`.
   */
  count: z.number().int().min(0),
});

/** One origin's IndexedDB: what was carried and what was skipped. */
export const originIndexedDbSchema = z.strictObject({
  databases: z.array(indexedDbDatabaseSchema).max(SESSION_LIMITS.indexedDbDatabasesPerOrigin),
  /** At most one entry per database and reason, or per store and reason. */
  skipped: z.array(indexedDbSkipSchema).max(5_000),
});
export type OriginIndexedDb = z.infer<typeof originIndexedDbSchema>;

/** Databases, records and the records' tagged-JSON UTF-8 bytes in `parts` (the limits' measure). */
export function indexedDbTotals(parts: readonly (OriginIndexedDb | undefined)[]) {
  let databases = 0;
  let records = 0;
  let bytes = 0;
  for (const part of parts) {
    for (const database of part?.databases ?? []) {
      databases += 1;
      for (const store of database.stores) {
        records += store.records.length;
        for (const record of store.records)
          bytes += Buffer.byteLength(JSON.stringify([record.key ?? null, record.value]));
      }
    }
  }
  return { databases, records, bytes };
}

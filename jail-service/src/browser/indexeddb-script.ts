// The page-side IndexedDB reader and writer behind saved sessions, kept as plain JavaScript source
// (a function object would carry transpiler helpers that do not exist in the page). Both run in a
// tab whose document is our own empty page of the origin (origin-tabs.ts), never a site's script.
// Values travel as tagged JSON (api/session-indexeddb.ts); what cannot round-trip is skipped.
import type { IndexedDbDatabase } from '@clawdie/kit/jail-api';
import { SESSION_LIMITS, TYPED_ARRAYS } from '@clawdie/kit/jail-api';

/** Budget left for one origin's export. */
export interface IndexedDbBudget {
  records: number;
  bytes: number;
}

const CODEC = `
  const VIEWS = ${JSON.stringify(TYPED_ARRAYS)};
  // Below the contract's bound: a tag (date, map) nests its payload one level deeper.
  const MAX_DEPTH = ${SESSION_LIMITS.indexedDbDepth - 2};
  class Refused { constructor(reason) { this.reason = reason; } }
  const toBase64 = (bytes) => {
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000)
      text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(text);
  };
  const fromBase64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  const number = (n) => Number.isNaN(n) ? { $t: 'number', v: 'NaN' }
    : n === Infinity ? { $t: 'number', v: 'Infinity' }
    : n === -Infinity ? { $t: 'number', v: '-Infinity' }
    : Object.is(n, -0) ? { $t: 'number', v: '-0' } : n;
  const REFUSED = { Blob: 'blob', File: 'file', FileList: 'file', CryptoKey: 'crypto-key' };
  const encode = (value, stack) => {
    if (stack.length > MAX_DEPTH) throw new Refused('too-deep');
    switch (typeof value) {
      case 'string': case 'boolean': return value;
      case 'number': return number(value);
      case 'undefined': return { $t: 'undefined' };
      case 'bigint': return { $t: 'bigint', v: value.toString() };
      case 'object': break;
      default: throw new Refused('unsupported-type');
    }
    if (value === null) return null;
    if (stack.includes(value)) throw new Refused('cyclic');
    const kind = Object.prototype.toString.call(value).slice(8, -1);
    if (REFUSED[kind]) throw new Refused(REFUSED[kind]);
    const inner = [...stack, value];
    const all = (items) => items.map((item) => encode(item, inner));
    if (Array.isArray(value)) return all(value);
    if (kind === 'Date') return { $t: 'date', v: number(value.getTime()) };
    if (kind === 'RegExp') return { $t: 'regexp', v: value.source, f: value.flags };
    if (kind === 'ArrayBuffer') return { $t: 'arraybuffer', v: toBase64(new Uint8Array(value)) };
    if (ArrayBuffer.isView(value)) {
      const bytes = toBase64(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      if (kind === 'DataView') return { $t: 'dataview', v: bytes };
      if (VIEWS.includes(kind)) return { $t: 'typedarray', c: kind, v: bytes };
      throw new Refused('unsupported-type');
    }
    if (kind === 'Map') return { $t: 'map', v: [...value].map((pair) => all(pair)) };
    if (kind === 'Set') return { $t: 'set', v: all([...value]) };
    const proto = Object.getPrototypeOf(value);
    if (kind !== 'Object' || (proto !== Object.prototype && proto !== null))
      throw new Refused('unsupported-type');
    const out = Object.fromEntries(Object.keys(value).map((k) => [k, encode(value[k], inner)]));
    return Object.hasOwn(out, '$t') ? { $t: 'object', v: out } : out;
  };
  const entries = (object) => Object.fromEntries(Object.keys(object).map((k) => [k, decode(object[k])]));
  const decode = (value) => {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map(decode);
    if (!Object.hasOwn(value, '$t')) return entries(value);
    const v = value.v;
    switch (value.$t) {
      case 'undefined': return undefined;
      case 'number': return Number(v);
      case 'bigint': return BigInt(v);
      case 'date': return new Date(decode(v));
      case 'regexp': return new RegExp(v, value.f);
      case 'arraybuffer': return fromBase64(v).buffer;
      case 'dataview': return new DataView(fromBase64(v).buffer);
      case 'typedarray':
        if (!VIEWS.includes(value.c)) throw new Error('bad typed array');
        return new globalThis[value.c](fromBase64(v).buffer);
      case 'map': return new Map(v.map(([k, x]) => [decode(k), decode(x)]));
      case 'set': return new Set(v.map(decode));
      case 'object': return entries(v);
      default: throw new Error('bad tag');
    }
  };
  const done = (request) => new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const finished = (tx) => new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'));
  });
`;

const EXPORT = `async (budget) => {
  ${CODEC}
  const LIMITS = ${JSON.stringify(SESSION_LIMITS)};
  const utf8 = new TextEncoder();
  const result = { databases: [], skipped: [] };
  const skip = (database, store, reason, count) => {
    const same = result.skipped.find((s) => s.database === database && s.store === store && s.reason === reason);
    if (same) same.count += count;
    else result.skipped.push({ database, ...(store === undefined ? {} : { store }), reason, count });
  };
  const long = (path) => [path ?? ''].flat().length > LIMITS.indexedDbIndexesPerStore ||
    [path ?? ''].flat().some((part) => part.length > LIMITS.indexedDbNameChars);
  const namesTooLong = (database) => long(database.name) || database.stores.some((store) =>
    long(store.name) || long(store.keyPath) || store.indexes.some((i) => long(i.name) || long(i.keyPath)));
  // Opens an existing database at its version; never creates one that vanished meanwhile.
  const openExisting = (name) => new Promise((resolve) => {
    const request = indexedDB.open(name);
    request.onupgradeneeded = () => request.transaction.abort();
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => resolve(null);
    request.onblocked = () => resolve(null);
  });
  const readDatabase = async (db) => {
    const database = { name: db.name, version: db.version, stores: [] };
    const skips = [];
    let records = 0;
    let bytes = 0;
    for (const name of db.objectStoreNames) {
      const tx = db.transaction(name, 'readonly');
      const store = tx.objectStore(name);
      if (store.indexNames.length > LIMITS.indexedDbIndexesPerStore) return { tooMany: 'too-many-stores' };
      const indexes = [...store.indexNames].map((n) => {
        const index = store.index(n);
        return { name: index.name, keyPath: index.keyPath, unique: index.unique, multiEntry: index.multiEntry };
      });
      const count = await done(store.count());
      if (records + count > budget.records) return { tooMany: 'too-many-records', records: records + count };
      const [keys, values] = await Promise.all([done(store.getAllKeys()), done(store.getAll())]);
      const inline = store.keyPath !== null;
      const entry = { name, keyPath: store.keyPath, autoIncrement: store.autoIncrement, indexes, records: [] };
      for (let i = 0; i < values.length; i += 1) {
        try {
          const key = inline ? undefined : encode(keys[i], []);
          const value = encode(values[i], []);
          bytes += utf8.encode(JSON.stringify([key ?? null, value])).length;
          entry.records.push(inline ? { value } : { key, value });
          records += 1;
        } catch (error) {
          if (!(error instanceof Refused)) throw error;
          skips.push([name, error.reason]);
        }
      }
      database.stores.push(entry);
      if (bytes > budget.bytes) return { tooMany: 'too-large', records };
    }
    return { database, skips, records, bytes };
  };
  const names = (await indexedDB.databases()).map((info) => info.name);
  // Only the first databases are tried; the rest are one counted entry (named by the first).
  const rest = names.slice(LIMITS.indexedDbDatabasesPerOrigin);
  if (rest.length > 0) skip(rest[0].slice(0, LIMITS.indexedDbNameChars), undefined, 'too-many-databases', rest.length);
  for (const name of names.slice(0, LIMITS.indexedDbDatabasesPerOrigin)) {
    const label = name.slice(0, LIMITS.indexedDbNameChars);
    const db = await openExisting(name);
    if (!db) { skip(label, undefined, 'unreadable', 1); continue; }
    try {
      if (db.objectStoreNames.length > LIMITS.indexedDbStoresPerDatabase) { skip(label, undefined, 'too-many-stores', 1); continue; }
      const read = await readDatabase(db);
      if (read.tooMany) { skip(label, undefined, read.tooMany, read.records ?? 1); continue; }
      if (namesTooLong(read.database)) { skip(label, undefined, 'too-large', read.records); continue; }
      for (const [store, reason] of read.skips) skip(label, store.slice(0, LIMITS.indexedDbNameChars), reason, 1);
      result.databases.push(read.database);
      budget.records -= read.records;
      budget.bytes -= read.bytes;
    } catch {
      skip(label, undefined, 'unreadable', 1);
    } finally {
      db.close();
    }
  }
  return JSON.stringify(result);
}`;

/** Evaluates to the JSON text of the origin's OriginIndexedDb, within `budget`. */
export function exportIndexedDbExpression(budget: IndexedDbBudget): string {
  return `(${EXPORT})(${JSON.stringify(budget)})`;
}

const IMPORT = `async (databases) => {
  ${CODEC}
  let records = 0;
  // Creates the database at its version with its stores and indexes; null when one of that name
  // exists already (the open is then undone), so a fresh browser needs a single round trip.
  const create = async (database) => {
    let fresh = false;
    const request = indexedDB.open(database.name, database.version);
    request.onupgradeneeded = (event) => {
      if (event.oldVersion !== 0) return request.transaction.abort();
      fresh = true;
      for (const s of database.stores) {
        const store = request.result.createObjectStore(s.name, { keyPath: s.keyPath, autoIncrement: s.autoIncrement });
        for (const i of s.indexes) store.createIndex(i.name, i.keyPath, { unique: i.unique, multiEntry: i.multiEntry });
      }
    };
    const db = await done(request).catch(() => null);
    if (db && !fresh) db.close();
    return fresh ? db : null;
  };
  const remove = (name) => new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('an IndexedDB database of this origin is open in a page'));
  });
  for (const database of databases) {
    // A database of the same name is replaced.
    let db = await create(database);
    if (!db) {
      await remove(database.name);
      db = await create(database);
      if (!db) throw new Error('the database could not be created');
    }
    try {
      const names = database.stores.filter((s) => s.records.length > 0).map((s) => s.name);
      if (names.length === 0) continue;
      // Default (relaxed) durability: a committed transaction is visible to every other connection
      // of the origin at once; flushing to disk first would only matter across a browser crash.
      const tx = db.transaction(names, 'readwrite');
      const committed = finished(tx);
      try {
        for (const s of database.stores) {
          const store = tx.objectStore(s.name);
          for (const record of s.records) {
            if (s.keyPath === null) store.put(decode(record.value), decode(record.key));
            else store.put(decode(record.value));
            records += 1;
          }
        }
      } catch (error) {
        // All or nothing: a record the browser refuses must not leave the others committed.
        committed.catch(() => undefined);
        tx.abort();
        throw error;
      }
      await committed;
    } finally {
      db.close();
    }
  }
  return records;
}`;

/** Evaluates to the number of records written: replaces each database of `databases`. */
export function importIndexedDbExpression(databases: readonly IndexedDbDatabase[]): string {
  return `(${IMPORT})(${JSON.stringify(databases)})`;
}

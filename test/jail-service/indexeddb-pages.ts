// Fixture pages for the IndexedDB session tests: `/make` writes a database the way a site would
// (two stores, compound and autoIncrement keys, indexes, structured-clone values, a Blob), `/big`
// writes one database over the record limit, and `/read`'s own first script reads it all back
// and reports checks in the title as JSON.

/** Shared page helpers: promisified requests and a title reporter. */
const HELPERS = `
const done = (r) => new Promise((ok, no) => { r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
const finished = (tx) => new Promise((ok, no) => { tx.oncomplete = ok; tx.onerror = () => no(tx.error); tx.onabort = () => no(tx.error); });
const report = (value) => { document.title = JSON.stringify(value); };
`;

export const MAKE_PAGE = `<!doctype html><title>making</title><script>${HELPERS}
(async () => {
  const open = indexedDB.open('shop', 3);
  open.onupgradeneeded = () => {
    const db = open.result;
    const carts = db.createObjectStore('carts', { keyPath: ['user', 'id'] });
    carts.createIndex('byUser', 'user', { unique: false });
    carts.createIndex('bySku', 'skus', { unique: false, multiEntry: true });
    carts.createIndex('byRef', 'ref', { unique: true });
    db.createObjectStore('events', { autoIncrement: true });
  };
  const db = await done(open);
  const tx = db.transaction(['carts', 'events'], 'readwrite');
  const carts = tx.objectStore('carts');
  carts.put({
    user: 'u1', id: 7, ref: 'r-1', skus: ['a', 'b'],
    at: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)),
    bytes: new Uint8Array([0, 1, 254, 255]).buffer,
    view: new Float64Array([1.5, -2]),
    data: new DataView(new Uint8Array([9, 8]).buffer),
    prefs: new Map([['theme', 'dark'], [2, { deep: [1, { x: null }] }]]),
    tags: new Set(['x', 'y']),
    odd: [NaN, Infinity, -Infinity, -0, undefined, 10n],
    re: /a+b/gi,
    tagged: { $t: 'not a tag', v: 1 },
  });
  carts.put({ user: 'u2', id: 1, ref: 'r-2', skus: ['b'] });
  const events = tx.objectStore('events');
  events.put({ kind: 'login' });
  events.put({ kind: 'view' });
  events.put(new Blob(['binary']));
  await finished(tx);
  db.close();
  report('made');
})();
</script>`;

export const BIG_PAGE = `<!doctype html><title>making</title><script>${HELPERS}
(async () => {
  const open = indexedDB.open('big', 1);
  open.onupgradeneeded = () => open.result.createObjectStore('rows');
  const db = await done(open);
  const tx = db.transaction('rows', 'readwrite');
  for (let i = 0; i < 5001; i += 1) tx.objectStore('rows').put(i, i);
  await finished(tx);
  db.close();
  report('made');
})();
</script>`;

/** Reads at its first script, with no wait: the data must already be there. */
export const READ_PAGE = `<!doctype html><title>reading</title><script>${HELPERS}
(async () => {
  const dbs = await indexedDB.databases();
  const db = await done(indexedDB.open('shop'));
  const tx = db.transaction(['carts', 'events'], 'readwrite');
  const carts = tx.objectStore('carts');
  const events = tx.objectStore('events');
  const cart = await done(carts.get(['u1', 7]));
  const byUser = await done(carts.index('byUser').getAll('u2'));
  const bySku = await done(carts.index('bySku').getAllKeys('b'));
  const eventKeys = await done(events.getAllKeys());
  const next = await done(events.add({ kind: 'next' }));
  let duplicate = 'accepted';
  try { await done(carts.add({ user: 'u3', id: 1, ref: 'r-1', skus: [] })); } catch (e) { duplicate = e.name; }
  tx.onabort = () => undefined;
  report({
    databases: dbs.map((d) => [d.name, d.version]),
    version: db.version,
    stores: [...db.objectStoreNames],
    keyPath: carts.keyPath,
    indexes: [...carts.indexNames].map((n) => { const i = carts.index(n); return [n, i.keyPath, i.unique, i.multiEntry]; }),
    autoIncrement: events.autoIncrement,
    at: cart.at instanceof Date && cart.at.toISOString(),
    bytes: cart.bytes instanceof ArrayBuffer && [...new Uint8Array(cart.bytes)],
    view: cart.view instanceof Float64Array && [...cart.view],
    data: cart.data instanceof DataView && [cart.data.getUint8(0), cart.data.getUint8(1)],
    prefs: cart.prefs instanceof Map && [cart.prefs.get('theme'), cart.prefs.get(2).deep[1].x],
    tags: cart.tags instanceof Set && [...cart.tags],
    odd: [Number.isNaN(cart.odd[0]), cart.odd[1], cart.odd[2], Object.is(cart.odd[3], -0), cart.odd.length, 4 in cart.odd && cart.odd[4] === undefined, typeof cart.odd[5] === 'bigint' && String(cart.odd[5])],
    re: cart.re instanceof RegExp && [cart.re.source, cart.re.flags],
    tagged: cart.tagged,
    byUser: byUser.map((c) => c.ref),
    bySku,
    eventKeys,
    next,
    duplicate,
  });
})().catch((error) => report({ error: String(error) }));
</script>`;

/** A service worker that answers every navigation of its origin itself, and a page installing it. */
export const SERVICE_WORKER = `self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  if (event.request.mode === 'navigate')
    event.respondWith(new Response('<!doctype html><title>from the worker</title>', { headers: { 'content-type': 'text/html' } }));
});`;

export const INSTALL_WORKER_PAGE = `<!doctype html><title>installing</title><script>
navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then(
  () => { document.title = '"installed"'; },
  (error) => { document.title = JSON.stringify(String(error)); },
);
</script>`;

// Bounds of a session bundle: a bundle is small login state, never a bulk-transfer channel.

export const SESSION_LIMITS = {
  origins: 20,
  cookies: 300,
  /** Per localStorage entry (key + value), and per cookie value. */
  valueChars: 16_384,
  entriesPerOrigin: 200,
  /** Request body of `/session/import`. */
  bodyBytes: 2 * 1024 * 1024,
  /** IndexedDB databases carried per origin (more: the rest are skipped, `too-many-databases`). */
  indexedDbDatabasesPerOrigin: 10,
  /** Object stores per database and indexes per store (more: the database is skipped). */
  indexedDbStoresPerDatabase: 50,
  indexedDbIndexesPerStore: 20,
  /** IndexedDB records in the whole bundle (export skips whole databases beyond it). */
  indexedDbRecords: 5_000,
  /** UTF-8 bytes of the records' tagged JSON (`[key, value]`) in the whole bundle. */
  indexedDbBytes: 1024 * 1024,
  /** Longest database, store, index name or key path component. */
  indexedDbNameChars: 512,
  /** Deepest nesting of one tagged value. */
  indexedDbDepth: 64,
} as const;

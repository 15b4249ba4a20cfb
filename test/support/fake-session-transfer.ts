import { indexedDbTotals, type SessionBundle } from '@clawdie/kit/jail-api';
import type { SessionTransfer } from '../../controlplane/src/browser/operator/jail-session-client.js';

const hostOf = (origin: string) => new URL(origin).hostname;
type OriginEntry = SessionBundle['origins'][number];

/**
 * A browser's login state in memory (starting as `initial`): export filters its cookies by the
 * origins' hosts (and `initial`'s IndexedDB skips stand for values it cannot export); import merges cookies (by name and domain), replaces each origin's storage and
 * IndexedDB databases, and is recorded in `imported`.
 */
export function createFakeSessionTransfer(initial: SessionBundle): SessionTransfer & {
  imported: SessionBundle[];
} {
  const imported: SessionBundle[] = [];
  let cookies = [...initial.cookies];
  const storage = new Map<string, OriginEntry>(
    initial.origins.map((entry) => [entry.origin, entry]),
  );
  return {
    imported,
    async exportSession(origins) {
      const hosts = origins.map(hostOf);
      return {
        cookies: cookies.filter((cookie) => hosts.includes(cookie.domain.replace(/^\./, ''))),
        origins: origins.map((origin) => {
          const entry = storage.get(origin);
          return {
            origin,
            localStorage: entry?.localStorage ?? [],
            indexedDB: {
              databases: entry?.indexedDB?.databases ?? [],
              skipped: entry?.indexedDB?.skipped ?? [],
            },
          };
        }),
      };
    },
    async importSession(next) {
      imported.push(next);
      const same = (a: { name: string; domain: string }, b: { name: string; domain: string }) =>
        a.name === b.name && a.domain === b.domain;
      cookies = [...cookies.filter((c) => !next.cookies.some((n) => same(c, n))), ...next.cookies];
      for (const entry of next.origins) {
        const databases = new Map(
          (storage.get(entry.origin)?.indexedDB?.databases ?? []).map((d) => [d.name, d]),
        );
        for (const database of entry.indexedDB?.databases ?? [])
          databases.set(database.name, database);
        storage.set(entry.origin, {
          origin: entry.origin,
          localStorage: entry.localStorage,
          indexedDB: { databases: [...databases.values()], skipped: [] },
        });
      }
      const { databases, records } = indexedDbTotals(next.origins.map((entry) => entry.indexedDB));
      return {
        cookies: next.cookies.length,
        origins: next.origins.length,
        indexedDb: { databases, records },
      };
    },
  };
}

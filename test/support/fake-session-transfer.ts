import type { SessionBundle } from '@clawdie/jail-service/api';
import type { SessionTransfer } from '../../controlplane/src/operator/jail-session-client.js';

const hostOf = (origin: string) => new URL(origin).hostname;

/**
 * A browser's login state in memory (starting as `initial`): export filters its cookies by the
 * origins' hosts; import merges cookies (by name and domain) and is recorded in `imported`.
 */
export function createFakeSessionTransfer(initial: SessionBundle): SessionTransfer & {
  imported: SessionBundle[];
} {
  const imported: SessionBundle[] = [];
  let cookies = [...initial.cookies];
  const storage = new Map(initial.origins.map((entry) => [entry.origin, entry.localStorage]));
  return {
    imported,
    async exportSession(origins) {
      const hosts = origins.map(hostOf);
      return {
        cookies: cookies.filter((cookie) => hosts.includes(cookie.domain.replace(/^\./, ''))),
        origins: origins.map((origin) => ({ origin, localStorage: storage.get(origin) ?? [] })),
      };
    },
    async importSession(next) {
      imported.push(next);
      const same = (a: { name: string; domain: string }, b: { name: string; domain: string }) =>
        a.name === b.name && a.domain === b.domain;
      cookies = [...cookies.filter((c) => !next.cookies.some((n) => same(c, n))), ...next.cookies];
      for (const entry of next.origins) storage.set(entry.origin, entry.localStorage);
      return { cookies: next.cookies.length, origins: next.origins.length };
    },
  };
}

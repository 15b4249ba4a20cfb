import type { SessionBundle } from '@clawdie/jail-service/api';
import type { SessionTransfer } from '../../controlplane/src/operator/jail-session-client.js';

/** A browser's login state in memory: export returns `bundle` filtered; imports are recorded. */
export function createFakeSessionTransfer(bundle: SessionBundle): SessionTransfer & {
  imported: SessionBundle[];
} {
  const imported: SessionBundle[] = [];
  return {
    imported,
    async exportSession(origins) {
      return {
        cookies: bundle.cookies.filter((cookie) =>
          origins.some((origin) => new URL(origin).hostname === cookie.domain.replace(/^\./, '')),
        ),
        origins: origins.map((origin) => ({
          origin,
          localStorage: bundle.origins.find((entry) => entry.origin === origin)?.localStorage ?? [],
        })),
      };
    },
    async importSession(next) {
      imported.push(next);
      return { cookies: next.cookies.length, origins: next.origins.length };
    },
  };
}

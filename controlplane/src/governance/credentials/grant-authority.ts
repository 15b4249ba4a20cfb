import { randomBytes, randomUUID } from 'node:crypto';
import { AppError } from '../../errors.js';

/**
 * Grant tokens: short-lived JWTs minted only when a supervisor approves a secret's use, with
 * audience = one task and claims binding one secret name and one host. Signed with a key that
 * exists only in this process's memory, so nothing outside it (least of all the model) can
 * mint or replay one.
 */
export interface GrantAuthority {
  mint(grant: {
    taskId: string;
    secret: string;
    host: string;
    ttlSeconds: number;
  }): Promise<string>;
  /** Resolves when `token` grants `secret` on `host` for `taskId` now; rejects GRANT_INVALID. */
  verify(
    token: string,
    expected: { taskId: string; secret: string; host: string },
  ): Promise<{ jti: string }>;
}

const typ = 'clawdie-grant+jwt';

/** jose (≈ 150 ms to load) is imported by the first grant, never by a task without secrets. */
const loadJose = () => import('jose');

export function createGrantAuthority(now: () => number = Date.now): GrantAuthority {
  const key = randomBytes(32);
  return {
    async mint({ taskId, secret, host, ttlSeconds }) {
      const { SignJWT } = await loadJose();
      const issuedAt = Math.floor(now() / 1000);
      return new SignJWT({ secret, host })
        .setProtectedHeader({ alg: 'HS256', typ })
        .setIssuer('clawdie-controlplane')
        .setAudience(`task:${taskId}`)
        .setJti(randomUUID())
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ttlSeconds)
        .sign(key);
    },
    async verify(token, expected) {
      try {
        const { jwtVerify } = await loadJose();
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          typ,
          issuer: 'clawdie-controlplane',
          audience: `task:${expected.taskId}`,
          currentDate: new Date(now()),
          requiredClaims: ['exp', 'jti'],
        });
        if (payload.secret !== expected.secret || payload.host !== expected.host) {
          throw new Error(`grant is for ${String(payload.secret)} on ${String(payload.host)}`);
        }
        return { jti: String(payload.jti) };
      } catch (error) {
        throw new AppError(
          'GRANT_INVALID',
          `no valid grant for secret ${expected.secret} on ${expected.host}: ${(error as Error).message}`,
          { status: 403, cause: error },
        );
      }
    },
  };
}

import { createLocalJWKSet, errors, type JSONWebKeySet, jwtVerify, SignJWT } from 'jose';
import { AuthError } from './auth-errors.js';
import { isScope, type Principal, type Scope } from './scopes.js';
import { type SigningKeys, signingAlgorithm } from './signing-keys.js';

const accessTokenType = 'at+jwt';

export interface TokenSettings {
  issuer: string;
  audience: string;
  /** Milliseconds since the epoch; injectable for expiry tests. */
  now: () => number;
}

export interface AccessTokenRequest {
  tenant: string;
  subject: string;
  scopes: readonly Scope[];
  ttlSeconds: number;
}

/** Mints API access tokens signed with the newest key (`kid` in the header). */
export function createTokenIssuer(keys: SigningKeys, settings: TokenSettings) {
  return async function issueAccessToken(request: AccessTokenRequest): Promise<string> {
    const issuedAt = Math.floor(settings.now() / 1000);
    return new SignJWT({ tenant: request.tenant, scope: request.scopes.join(' ') })
      .setProtectedHeader({ alg: signingAlgorithm, kid: keys.current.kid, typ: accessTokenType })
      .setIssuer(settings.issuer)
      .setAudience(settings.audience)
      .setSubject(request.subject)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + request.ttlSeconds)
      .sign(keys.current.key);
  };
}

/** Verifies bearer tokens (read from the request by `createBearerCheck`) into a Principal. */
export interface TokenVerifier {
  /** What a caller without a token is told to send after `Authorization: Bearer `. */
  readonly tokenHint: string;
  /** Resolves the caller, or rejects with AuthError (invalid, expired, wrong audience). */
  verify(token: string): Promise<Principal>;
}

/** Verifies access tokens against the public JWKS (any listed `kid`), issuer and audience. */
export function createTokenVerifier(jwks: JSONWebKeySet, settings: TokenSettings): TokenVerifier {
  const keySet = createLocalJWKSet(jwks);
  return {
    tokenHint: '<token>',
    async verify(token) {
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jwtVerify(token, keySet, {
          issuer: settings.issuer,
          audience: settings.audience,
          algorithms: [signingAlgorithm],
          typ: accessTokenType,
          currentDate: new Date(settings.now()),
          requiredClaims: ['exp', 'sub'],
        }));
      } catch (error) {
        throw toAuthError(error);
      }
      return principalOf(payload);
    },
  };
}

function principalOf(payload: Record<string, unknown>): Principal {
  const tenant = payload.tenant;
  const granted = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
  if (typeof tenant !== 'string' || tenant === '') {
    throw new AuthError('TOKEN_INVALID', 'token has no tenant claim');
  }
  return {
    tenant,
    subject: String(payload.sub),
    scopes: granted.filter(isScope),
    via: 'token',
  };
}

function toAuthError(error: unknown): AuthError {
  if (error instanceof errors.JWTExpired)
    return new AuthError('TOKEN_EXPIRED', 'token has expired', error);
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'aud') {
    return new AuthError('TOKEN_WRONG_AUDIENCE', 'token is not meant for this API (aud)', error);
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new AuthError('TOKEN_INVALID', `token rejected: ${detail}`, error);
}

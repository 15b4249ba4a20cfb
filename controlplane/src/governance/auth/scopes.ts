/** What an API token may do. `admin` implies every other scope. */
export const scopes = ['tasks:run', 'tasks:read', 'operate', 'admin'] as const;
export type Scope = (typeof scopes)[number];

/** The verified caller of a request. */
export interface Principal {
  tenant: string;
  subject: string;
  scopes: readonly Scope[];
  /** How the caller proved itself: a bearer token, or nothing (auth off on loopback). */
  via: 'token' | 'loopback';
}

export function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value);
}

export function hasScope(principal: Principal, scope: Scope): boolean {
  return principal.scopes.includes('admin') || principal.scopes.includes(scope);
}

/**
 * The tenant whose tasks `principal` may see: its own, or undefined (every tenant) with `admin`.
 * Task reads pass it to the repository, so another tenant's task looks exactly like an unknown one.
 */
export function visibleTenant(principal: Principal): string | undefined {
  return principal.scopes.includes('admin') ? undefined : principal.tenant;
}

/** The audit actor string for a principal. */
export function actorOf(principal: Principal): string {
  return `tenant:${principal.tenant}/${principal.subject}`;
}

/** Who calls when auth is off: loopback only, full access, tenant `default`. */
export const loopbackPrincipal: Principal = {
  tenant: 'default',
  subject: 'local',
  scopes: ['admin'],
  via: 'loopback',
};

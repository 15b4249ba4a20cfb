// The banner's dashboard line: how an admin logs in, whichever way auth is set up.

/** The `clawdie` command that mints an admin-scope API token (also a dashboard login). */
export const ADMIN_TOKEN_COMMAND = 'npx clawdie token create --tenant default --scope admin';

/** How to log in to the dashboard, for the banner: never leaves an admin without a way in. */
export function dashboardLogin(generated: string | null, configured: string | null): string {
  if (generated)
    return `(admin token for this run: ${generated}; set CLAWDIE_ADMIN_TOKEN to choose one)`;
  if (configured) return '(log in with CLAWDIE_ADMIN_TOKEN)';
  return `(log in with an admin-scope token: ${ADMIN_TOKEN_COMMAND})`;
}

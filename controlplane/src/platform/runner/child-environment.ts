// The complete environment of a process the controlplane starts. A child never inherits the
// controlplane's environment (which holds the model API key, the admin token, bot tokens): it
// gets a fixed PATH, the locale, and exactly the variables its caller names.

declare const built: unique symbol;

/**
 * A child's whole environment. Only `childEnvironment` makes one, so a launcher that takes this
 * type cannot be handed `process.env` (or a spread of it) by mistake.
 */
export type ChildEnvironment = Readonly<Record<string, string>> & { readonly [built]: true };

/** PATH for every child unless its caller sets one (absolute program paths are used anyway). */
export const CHILD_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Locale and time zone: harmless, and they change how children format dates and text. */
export const LOCALE_VARIABLES: readonly string[] = ['LANG', 'LC_ALL', 'TZ'];

/**
 * `{ PATH }` plus `values`; undefined and empty values are left out.
 *
 * @example childEnvironment({ ...pickVariables(parent, LOCALE_VARIABLES), HOME: home })
 */
export function childEnvironment(
  values: Readonly<Record<string, string | undefined>>,
): ChildEnvironment {
  const env: Record<string, string> = { PATH: CHILD_PATH };
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== '') env[name] = value;
  }
  return Object.freeze(env) as ChildEnvironment;
}

/** The variables of `parent` named in `names` (an allowlist), for passing on to a child. */
export function pickVariables(
  parent: Readonly<Record<string, string | undefined>>,
  names: Iterable<string>,
): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = parent[name];
    if (value !== undefined && value !== '') picked[name] = value;
  }
  return picked;
}

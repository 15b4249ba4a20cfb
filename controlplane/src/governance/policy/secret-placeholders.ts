import type { Action } from '@clawdie/kit/jail-api';

/** `{{secret:name}}`: what the model types where a stored secret belongs. */
export const secretPlaceholder = /\{\{secret:([A-Za-z0-9_.-]+)\}\}/g;

/** The distinct secret names referenced in `text`. */
export function secretNamesIn(text: string): string[] {
  return [...new Set([...text.matchAll(secretPlaceholder)].map((match) => match[1] as string))];
}

/** The distinct secret names the `type` actions of a batch reference. */
export function secretNamesInActions(actions: readonly Action[]): string[] {
  return [
    ...new Set(
      actions.flatMap((action) => (action.type === 'type' ? secretNamesIn(action.text) : [])),
    ),
  ];
}

/** `text` with each placeholder replaced by `resolve(name)`. */
export function fillSecrets(text: string, resolve: (name: string) => string): string {
  return text.replace(secretPlaceholder, (_, name: string) => resolve(name));
}

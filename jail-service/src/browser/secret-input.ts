// Adapter: a secret's `type` — into the focused field only when its frame's origin and its kind
// (or autocomplete token) are the ones the guard allows, inserted in one step into that element
// (never key by key to wherever focus moves next), then masked in every capture until its document
// goes away (field-masks.ts) and kept in its field (secret-fields.ts).
import { randomUUID } from 'node:crypto';
import type { SecretGuard } from '@clawdie/kit/jail-api';
import type { CDPSession, Protocol } from 'puppeteer-core';
import { ActionFailedError, FocusMismatchError } from '../errors.js';
import type { FieldMasks } from './field-masks.js';
import { releaseGroup, unwrap, walkFrames } from './frame-walk.js';
import { INSERT_FUNCTION, WALK_FUNCTION } from './landing-script.js';
import type { Tab } from './page-tabs.js';
import type { SecretFields } from './secret-fields.js';

/**
 * Inserts `text` into the focused element of `tab` when `guard` allows it; else throws
 * FocusMismatchError and nothing is typed. The message names where the focus is, never the text.
 */
export async function insertSecret(
  tab: Tab,
  masks: FieldMasks,
  secrets: SecretFields,
  text: string,
  guard: SecretGuard,
): Promise<void> {
  const group = `clawdie-secret-${randomUUID()}`;
  const sessions = new Set<CDPSession>();
  let kept = false;
  try {
    const walk = await walkFrames(tab, 'focus', { x: 0, y: 0 }, group, sessions);
    const origin = walk.frames.at(-1)?.origin ?? 'null';
    const where = `focus is on ${walk.element?.tag ?? 'nothing'} (${walk.element?.field ?? 'other'}) in ${origin}`;
    if (!guard.origins.includes(origin))
      throw new FocusMismatchError(`${where}: not an origin this secret is for`);
    const { session, objectId: document } = walk.document;
    const element = unwrap<string | null>(
      await session.send('Runtime.callFunctionOn', {
        functionDeclaration: WALK_FUNCTION,
        objectId: document,
        arguments: [{ value: 'focus' }, { value: 0 }, { value: 0 }, { value: true }],
        returnByValue: false,
        objectGroup: group,
      }),
      false,
    );
    if (!element) throw new FocusMismatchError(`${where}: nothing is focused`);
    const tokens = guard.autocomplete.map((token) => token.toLowerCase());
    const outcome = await withoutPageText(() =>
      session.send('Runtime.callFunctionOn', {
        functionDeclaration: INSERT_FUNCTION,
        objectId: element,
        arguments: [{ value: text }, { value: guard.fields }, { value: tokens }],
        returnByValue: true,
      }),
    );
    if (outcome === 'not-focused' || outcome === 'wrong-field')
      throw new FocusMismatchError(`${where}: not a field this secret is for (${outcome})`);
    if (outcome !== 'inserted' && outcome !== 'set')
      throw new ActionFailedError(`the secret could not be inserted (${outcome})`);
    masks.add(tab, { session, objectId: element }, walk.barriers, group, sessions);
    await secrets.add(tab, { session, objectId: element }, walk.element?.field === 'password');
    kept = true;
  } finally {
    if (!kept) void releaseGroup(sessions, group);
  }
}

/**
 * The insertion's outcome. A page that throws while the secret goes in (a listener, a patched
 * setter) could put the text it saw in its error; the error is the model's to read, so it says
 * only that the page failed, never what the page wrote.
 */
async function withoutPageText(
  insert: () => Promise<Protocol.Runtime.CallFunctionOnResponse>,
): Promise<string> {
  const reply = await insert();
  if (reply.exceptionDetails)
    throw new ActionFailedError(
      'the secret could not be inserted (the page threw; its message is withheld)',
    );
  return unwrap<string>(reply, true);
}

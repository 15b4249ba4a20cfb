// Audit rows hold no model-controlled text at length (issue 20): a hostile model must not fill the
// chain with megabytes, nor park a page's secret in it by typing it. Typed text is kept as its
// length and a digest; URLs, reasons and messages are cut to a few hundred characters.
import { createHash } from 'node:crypto';
import type { Action } from '@clawdie/kit/jail-api';
import { secretNamesIn } from '../policy/secret-placeholders.js';

/** Characters of one model-controlled string (a URL, a reason, a message) an audit row keeps. */
export const MAX_AUDITED_CHARS = 200;
/** Secret placeholder names listed for one `type` (each cut to 64 characters). */
const MAX_AUDITED_NAMES = 4;

/** `text` cut to `max` characters, saying how long it was when cut. */
export function capText(text: string, max = MAX_AUDITED_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length} chars]`;
}

/**
 * The first 16 hex digits of the text's SHA-256: enough to tell two typed texts apart or match
 * one to a trace, not to read it. A short text (a PIN) can be guessed from its digest, which is
 * why a placeholder's value is never typed through here: secrets are filled after auditing.
 */
export function textDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * An action as audited and shown to supervisors: typed text only as its length, digest and the
 * secret placeholders it names (never the text, never a value); URLs cut; the jail-service
 * fields the controlplane adds (`expect`, `secret`) left out.
 */
export function auditedAction(action: Action): Record<string, unknown> {
  if (action.type === 'type') {
    const secrets = secretNamesIn(action.text)
      .slice(0, MAX_AUDITED_NAMES)
      .map((name) => capText(name, 64));
    return {
      type: 'type',
      chars: action.text.length,
      sha256: textDigest(action.text),
      ...(secrets.length ? { secrets } : {}),
    };
  }
  if (action.type === 'navigate' || action.type === 'open_url')
    return { type: action.type, url: capText(action.url) };
  const { expect: _expect, ...rest } = action as Action & { expect?: unknown };
  return rest;
}

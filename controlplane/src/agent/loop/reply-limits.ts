// Bounds on one model reply (issue 12): a hostile or broken model server must not fill the
// database with raw text, nor turn one reply into thousands of actions and audit rows.

/** Characters of a raw reply kept in the trace, the event stream and the conversation. */
export const MAX_STORED_REPLY_CHARS = 64 * 1024;

/** Actions one reply may hold; more make the step a `plan_error` the model is told about. */
export const MAX_ACTIONS_PER_REPLY = 20;

/** The reply as stored: at most MAX_STORED_REPLY_CHARS, with a marker saying what was cut. */
export function capReply(text: string): string {
  if (text.length <= MAX_STORED_REPLY_CHARS) return text;
  return `${text.slice(0, MAX_STORED_REPLY_CHARS)}\n[reply truncated: ${text.length} characters in all, ${MAX_STORED_REPLY_CHARS} kept]`;
}

/** Why a reply with `count` actions is refused, or null when it may run. */
export function tooManyActions(count: number): string | null {
  return count > MAX_ACTIONS_PER_REPLY
    ? `the reply has ${count} actions; at most ${MAX_ACTIONS_PER_REPLY} are allowed in one reply`
    : null;
}

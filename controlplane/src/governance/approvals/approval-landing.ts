// What an approval card and the Telegram text say about where the action lands (issue 20).

/**
 * Where the action lands, as the gate saw it: the origin of the frame its target (or the focus)
 * is in, and for typing the field's kind and autocomplete token (issue 20). Null when unknown.
 */
export function landingFacts(detail: Record<string, unknown>): {
  frame: string | null;
  field: string | null;
} {
  const frame = typeof detail.frame_origin === 'string' ? detail.frame_origin : null;
  const kind = typeof detail.field === 'string' ? detail.field : null;
  const autocomplete = typeof detail.autocomplete === 'string' ? detail.autocomplete : null;
  const field = kind ? `${kind}${autocomplete ? ` (autocomplete ${autocomplete})` : ''}` : null;
  return { frame, field };
}

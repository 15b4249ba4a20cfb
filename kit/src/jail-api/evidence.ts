// Network evidence of an action batch (issue 23): the main-frame navigations and the document,
// form and XHR/fetch requests the batch caused — method, URL (query values dropped), status,
// timing and bytes, never a body — carried by the `POST /actions` response.
import { z } from 'zod';

/** Entries one batch reports at most; the rest are counted in `dropped`. */
export const MAX_EVIDENCE_ENTRIES = 50;

export const networkRequestKindSchema = z.enum(['document', 'form', 'xhr', 'fetch']);
export type NetworkRequestKind = z.infer<typeof networkRequestKindSchema>;

export const networkEntrySchema = z.object({
  method: z.string(),
  /** The URL without user info, fragment or query values (`?q=&token=`: the keys only). */
  url: z.string(),
  /** `form`: a document request with a body (a form POST); `document`: any other document. */
  kind: networkRequestKindSchema,
  main_frame: z.boolean(),
  /** The final HTTP status (a redirect's own status for the hop that redirected); null: none. */
  status: z.number().int().nullable(),
  /** Why no response came (`net::ERR_CONNECTION_REFUSED`), or `pending` when none came in time. */
  error: z.string().optional(),
  /** Start, relative to the batch's start, in ms. */
  started_ms: z.number().min(0),
  duration_ms: z.number().min(0).nullable(),
  /** Bytes received on the wire (headers and body), when the browser reported them. */
  bytes: z.number().int().min(0).nullable(),
});
export type NetworkEntry = z.infer<typeof networkEntrySchema>;

export const networkEvidenceSchema = z.object({
  entries: z.array(networkEntrySchema).max(MAX_EVIDENCE_ENTRIES),
  /** Entries past MAX_EVIDENCE_ENTRIES, not reported. */
  dropped: z.number().int().min(0),
});
export type NetworkEvidence = z.infer<typeof networkEvidenceSchema>;

/** Methods that change state on the server: the request `finished()` is checked against. */
export const STATE_CHANGING_METHODS: ReadonlySet<string> = new Set([
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
]);

/** `url` as evidence keeps it: no user info, no fragment, query keys without their values. */
export function evidenceUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.split(/[?#]/, 1)[0] ?? '';
  }
  parsed.username = '';
  parsed.password = '';
  parsed.hash = '';
  const keys = [...parsed.searchParams.keys()];
  parsed.search = '';
  const query = keys.map((key) => `${encodeURIComponent(key)}=`).join('&');
  return query ? `${parsed.toString()}?${query}` : parsed.toString();
}

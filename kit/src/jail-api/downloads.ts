// Contract of the download routes: the controlplane sets a task's download policy, lists what the
// browser downloaded (finished and refused), copies each finished file out, then clears them.
// Types are sniffed from the file's bytes by the jail-service, never taken from headers.
import { z } from 'zod';

/** The file types a policy may allow; `binary` is anything the sniffer does not recognise. */
export const downloadKinds = [
  'pdf',
  'png',
  'jpeg',
  'gif',
  'webp',
  'zip',
  'docx',
  'xlsx',
  'csv',
  'json',
  'text',
  'binary',
] as const;
export type DownloadKind = (typeof downloadKinds)[number];

/** Allowed when a policy allows downloads and names no types: every kind but `binary`. */
export const DEFAULT_DOWNLOAD_KINDS: readonly DownloadKind[] = downloadKinds.filter(
  (kind) => kind !== 'binary',
);

/** Longest download name kept (characters); the name is only a label, never a path. */
export const MAX_DOWNLOAD_NAME_CHARS = 120;

/** `PUT /downloads/policy`: a fresh per-task directory, and what the browser may download. */
export const downloadPolicySchema = z.strictObject({
  download: z.enum(['off', 'allowed']),
  max_file_bytes: z.number().int().min(1),
  max_task_bytes: z.number().int().min(1),
  types: z.array(z.enum(downloadKinds)),
});
export type DownloadPolicy = z.infer<typeof downloadPolicySchema>;

/** Why a download was not kept. */
export const downloadRefusals = [
  'downloads_off',
  'file_too_large',
  'task_limit',
  'type_not_allowed',
  'canceled',
  'failed',
] as const;
export type DownloadRefusal = (typeof downloadRefusals)[number];

/** A C0 control character or DEL. */
export const isControlChar = (char: string): boolean => {
  const code = char.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
};

/** A name that is safe as one path component: no separators, no dot-only names, no controls. */
export const downloadNameSchema = z
  .string()
  .min(1)
  .max(MAX_DOWNLOAD_NAME_CHARS)
  .refine(
    (name) => !/[/\\]/.test(name) && !/^\.{1,2}$/.test(name) && ![...name].some(isControlChar),
    'must be a plain file name',
  );

export const downloadEntrySchema = z.object({
  /** The browser's download guid. */
  id: z.string().regex(/^[A-Za-z0-9-]{1,64}$/),
  name: downloadNameSchema,
  /** Where it came from (a blob: or data: URL is cut to its first 200 characters). */
  url: z.string().max(2048),
  state: z.enum(['in_progress', 'completed', 'refused']),
  /** Bytes received so far (in progress), the file's size (completed), or where it stopped. */
  bytes: z.number().int().min(0),
  kind: z.enum(downloadKinds).nullable(),
  mime: z.string().nullable(),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  refusal: z.enum(downloadRefusals).nullable(),
  started_at: z.number().int(),
});
export type DownloadEntry = z.infer<typeof downloadEntrySchema>;

export const downloadListSchema = z.object({ downloads: z.array(downloadEntrySchema) });
export type DownloadList = z.infer<typeof downloadListSchema>;

/** The download routes, declared once (docs/jail-service-api.md is generated from this). */
export const downloadRoutes = [
  {
    method: 'PUT',
    path: '/downloads/policy',
    description:
      'Starts a fresh per-task download directory with this policy (off: the browser denies every download; each attempt is listed as refused). Forgets earlier downloads.',
  },
  {
    method: 'GET',
    path: '/downloads',
    description:
      'Every download since the policy was set: in progress, completed (size, sniffed type, SHA-256) or refused (why).',
  },
  {
    method: 'GET',
    path: '/downloads/:id',
    description: 'The bytes of one completed download (404 for any other).',
  },
  {
    method: 'DELETE',
    path: '/downloads',
    description:
      'Cancels what is in progress, deletes the directory and its files, and denies downloads again.',
  },
] as const;

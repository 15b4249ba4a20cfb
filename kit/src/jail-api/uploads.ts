// Contract of the upload routes: before a task's first step the controlplane sends the files the
// task provides (by name, never a host path), the jail-service answers each file chooser the page
// opens with one of them, lists what it did, and deletes them when the task ends.
import { z } from 'zod';
import { downloadNameSchema } from './downloads.js';

/** Most bytes one uploaded file may have (the policy's `max_upload_bytes` is at most this). */
export const MAX_UPLOAD_BYTES = 256 * 1024 * 1024;

/** One file the task provides, as the jail-service holds it. */
export const uploadFileSchema = z.object({
  name: downloadNameSchema,
  bytes: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type UploadFile = z.infer<typeof uploadFileSchema>;

/**
 * What became of a file chooser the page opened: `uploaded` (a provided file was set), `cancelled`
 * (none provided), `held` (the file chosen is sent only once the controlplane decides: its policy
 * asks a supervisor first), `refused` (held, then refused), `failed` (held, approved, and the
 * chooser's input was gone by then).
 */
export const uploadOutcomes = ['uploaded', 'cancelled', 'held', 'refused', 'failed'] as const;

/** A file chooser the page opened, and what became of it. */
export const uploadEventSchema = z.object({
  seq: z.number().int().min(1),
  outcome: z.enum(uploadOutcomes),
  /** The file chosen for it (set, held, refused or failed), else null. */
  file: uploadFileSchema.nullable(),
  /** The origin of the page that opened the chooser. */
  origin: z.string().max(2048),
  /** The input's `accept` attribute (cut to 200 characters). */
  accept: z.string().max(200),
  at: z.number().int(),
});
export type UploadEvent = z.infer<typeof uploadEventSchema>;

export const uploadListSchema = z.object({
  files: z.array(uploadFileSchema),
  events: z.array(uploadEventSchema),
});
export type UploadList = z.infer<typeof uploadListSchema>;

/** The controlplane's answer to a `held` chooser: set its file, or refuse it. */
export const uploadDecisionSchema = z.object({ decision: z.enum(['set', 'refuse']) }).strict();
export type UploadDecision = z.infer<typeof uploadDecisionSchema>;

/** The upload routes, declared once (docs/jail-service-api.md is generated from this). */
export const uploadRoutes = [
  {
    method: 'PUT',
    path: '/uploads/:name',
    description:
      "Stores the request body as the task's file `name` in the per-task upload directory (made on the first file); answers its size and SHA-256. With `?hold=1` a chooser this file is chosen for is held until `POST /uploads/choosers/:seq` decides.",
  },
  {
    method: 'GET',
    path: '/uploads',
    description:
      'The files provided and every file chooser the page opened since: answered with a file (which, from what origin), cancelled, or held for a decision.',
  },
  {
    method: 'POST',
    path: '/uploads/choosers/:seq',
    description:
      'Decides a held chooser (`{"decision":"set"|"refuse"}`): sets its file on the input (`uploaded`, or `failed` when the input is gone) or leaves it cancelled (`refused`); answers the event. 409 when it is not held.',
  },
  {
    method: 'DELETE',
    path: '/uploads',
    description: 'Deletes the upload directory and its files; later choosers are cancelled.',
  },
] as const;

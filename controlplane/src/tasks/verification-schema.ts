// The `verification` of a compact result (issue 23): its own file so the result's schema
// (task-input.ts) does not import the loop's events (task-verification.ts, which decides it).
import { networkEntrySchema } from '@clawdie/kit/jail-api';
import { z } from 'zod';

/** Evidence items a verification carries at most. */
export const MAX_VERIFICATION_EVIDENCE = 3;

export const verificationEvidenceSchema = networkEntrySchema
  .pick({ method: true, url: true, status: true, error: true })
  .extend({ step: z.number().int().min(1) });
export type VerificationEvidence = z.infer<typeof verificationEvidenceSchema>;

export const taskVerificationSchema = z.object({
  verdict: z.enum(['verified', 'unverified', 'unchecked']),
  /** One sentence: why this verdict. */
  reason: z.string(),
  evidence: z.array(verificationEvidenceSchema).max(MAX_VERIFICATION_EVIDENCE),
});
export type TaskVerification = z.infer<typeof taskVerificationSchema>;

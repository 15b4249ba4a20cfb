import { SESSION_LIMITS, sessionOriginSchema } from '@clawdie/kit/jail-api';
import { z } from 'zod';

/** A session profile's name: letters, digits, `.`, `_`, `-` (as secret names), up to 64. */
export const profileNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'must be letters, digits, ., _ or - (up to 64)');

/** The origins a profile covers (`https://host[:port]`), deduplicated. */
export const sessionOriginsSchema = z
  .array(sessionOriginSchema)
  .min(1)
  .max(SESSION_LIMITS.origins)
  .transform((origins) => [...new Set(origins)]);

import {
  createLogger as createServiceLogger,
  type DestinationStream,
} from '@clawdie/jail-service/logger';

/** The controlplane's logger: the shared factory (one redaction list), JSON on stderr. */
export function createLogger(level: string, destination?: DestinationStream) {
  return createServiceLogger({
    service: 'controlplane',
    level,
    ...(destination ? { destination } : {}),
  });
}

import {
  createLogger as createServiceLogger,
  type DestinationStream,
} from '@clawdie/jail-service/logger';

/** hostd's logger: the shared factory (one redaction list), synchronous JSON on stderr. */
export function createLogger(level: string, destination?: DestinationStream) {
  return createServiceLogger({
    service: 'hostd',
    level,
    sync: true,
    ...(destination ? { destination } : {}),
  });
}

import {
  createLogger as createServiceLogger,
  type DestinationStream,
} from './logging/create-logger.js';

/** The jail-service's logger: the shared factory (one redaction list), synchronous JSON on stderr. */
export function createLogger(level: string, destination?: DestinationStream) {
  return createServiceLogger({
    service: 'jail-service',
    level,
    sync: true,
    ...(destination ? { destination } : {}),
  });
}

import { createLogger as create, type DestinationStream } from '@clawdie/kit/logger';

/** The jail-service logger: the one shared factory and redaction list; synchronous JSON on stderr. */
export const createLogger = (level: string, destination?: DestinationStream) =>
  create({ service: 'jail-service', level, sync: true, destination });

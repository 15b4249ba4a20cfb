import { createLogger as create, type DestinationStream } from '@clawdie/jail-service/logger';

/** The hostd logger: the one shared factory and redaction list; synchronous JSON on stderr. */
export const createLogger = (level: string, destination?: DestinationStream) =>
  create({ service: 'hostd', level, sync: true, destination });

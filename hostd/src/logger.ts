import { createLogger as create, type DestinationStream } from '@clawdie/kit/logger';

/** The hostd logger: the one shared factory and redaction list; synchronous JSON on stderr. */
export const createLogger = (level: string, destination?: DestinationStream) =>
  create({ service: 'hostd', level, sync: true, destination });

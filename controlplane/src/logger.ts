import { createLogger as create, type DestinationStream } from '@clawdie/kit/logger';

/** The controlplane logger: the one shared factory and redaction list; JSON on stderr. */
export const createLogger = (level: string, destination?: DestinationStream) =>
  create({ service: 'controlplane', level, destination });

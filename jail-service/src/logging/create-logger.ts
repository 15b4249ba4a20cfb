// The one logger factory of every Clawdie process: JSON lines on stderr (stdout stays free for CLI
// results and MCP stdio), the one redaction list of `redaction.ts`. Import it as
// `@clawdie/jail-service/logger`.
import { type DestinationStream, type Logger, pino } from 'pino';
import { REDACT_PATHS, REDACTED, scrubValue } from './redaction.js';

export interface LoggerOptions {
  /** `service` field of every line: controlplane, hostd, jail-service. */
  service: string;
  level: string;
  /** Synchronous stderr writes (daemons that may exit right after a fatal line). Default false. */
  sync?: boolean;
  /** Where lines go; stderr when absent (tests pass a stream to read the lines back). */
  destination?: DestinationStream | undefined;
}

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { service: options.service },
      redact: { paths: [...REDACT_PATHS], censor: REDACTED },
      hooks: {
        logMethod(args, method) {
          const scrubbed = args.map((arg) => scrubValue(arg));
          return method.apply(this, scrubbed as Parameters<typeof method>);
        },
      },
    },
    options.destination ?? pino.destination({ fd: 2, sync: options.sync ?? false }),
  );
}

export type { DestinationStream, Logger } from 'pino';
export { REDACT_PATHS, REDACTED, scrubText } from './redaction.js';

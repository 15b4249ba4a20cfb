// The one logger factory of every Clawdie process: JSON lines on stderr (stdout stays free for CLI
// results and MCP stdio), the one redaction list of `redaction.ts`. Import it as
// `@clawdie/kit/logger`.
import { type DestinationStream, type Logger, pino } from 'pino';
import { scrubValue } from './redaction.js';

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
  const logger = pino(
    {
      level: options.level,
      base: { service: options.service },
      hooks: {
        logMethod(args, method) {
          const scrubbed = args.map((arg) => scrubValue(arg));
          return method.apply(this, scrubbed as Parameters<typeof method>);
        },
      },
    },
    options.destination ?? pino.destination({ fd: 2, sync: options.sync ?? false }),
  );
  // Child bindings skip pino's hooks and formatters: scrub them on the way in. Children inherit
  // this `child` through their prototype, so grandchildren are covered too.
  const child = logger.child;
  logger.child = function scrubbedChild(this: Logger, bindings, childOptions) {
    return child.call(this, scrubValue(bindings) as typeof bindings, childOptions);
  } as typeof child;
  return logger;
}

export type { DestinationStream, Logger } from 'pino';
export { isSecretKey, REDACTED, scrubText } from './redaction.js';

import { pino } from 'pino';

/** One pino logger writing JSON to stderr (stdout stays free for CLI results and MCP stdio). */
export function createLogger(level: string) {
  return pino(
    {
      level,
      base: { service: 'controlplane' },
      redact: {
        paths: ['*.token', '*.apiKey', '*.secret', '*.authorization', 'headers.authorization'],
        censor: '[redacted]',
      },
    },
    pino.destination({ fd: 2, sync: false }),
  );
}

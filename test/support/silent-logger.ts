import { pino } from 'pino';

/** A logger that drops everything, for tests that do not assert on logs. */
export const silentLogger = pino({ level: 'silent' });

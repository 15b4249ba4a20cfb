// The database's clock, for the times replicas on different machines compare: heartbeats are
// written and aged by it, so the replicas' own clocks never meet (docs/operations.md, replicas).
import { type AnyColumn, sql } from 'drizzle-orm';

/**
 * Now by the database's clock, in epoch milliseconds. `clock_timestamp()`, not `now()`: a
 * statement that waited for a lock (or ran late in a transaction) still writes the time it ran.
 */
export const databaseNowMs = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/** How long ago `column` (epoch ms) was, by the database's clock; null when it is null. */
export const databaseAgeMs = (column: AnyColumn) =>
  sql<number | null>`${databaseNowMs} - ${column}`.mapWith((value: string | number | null) =>
    value === null ? null : Number(value),
  );

// Ordering text the way SQLite does (its BINARY collation: by bytes), whatever the database's
// locale: `ORDER BY name COLLATE "C"`. Under en_US, `a` would sort before `B`; on SQLite after.
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

export function byteOrder(column: PgColumn): SQL {
  return sql`${column} COLLATE "C"`;
}
